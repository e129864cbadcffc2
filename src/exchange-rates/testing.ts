// What the tests of exchange-rates/ reach beyond its index.ts (never imported by src/).
export { normalizeRate, rateProblem } from "./rate-text.js";
