// What tests reach beyond the demo's index: the cast and the pure deal builder.
export { HISTORY, PEOPLE, PLANS } from "./cast.js";
export { type DemoDeal, demoDeals, periodsOf } from "./deals.js";
export { demoReps } from "./seed.js";
