// What the tests of deals/ reach beyond its index.ts (never imported by src/).
export { BulkEnvelope, BulkItem, BulkResult } from "./schema.js";
