// The demo data set (`cts seed --demo`, the owner command `seed.demo`), built through the services.
export { type SeedResult, seedDemo } from "./seed.js";
