// What the tests of deals/ reach beyond its index.ts (never imported by src/).

/** The contract dates' rule a create checks after its schema (the console's deal form foresees it). */
export { contractProblems, writableOf } from "./records.js";
export { BulkEnvelope, BulkItem, BulkResult } from "./schema.js";
