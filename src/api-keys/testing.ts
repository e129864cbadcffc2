// What the tests of api-keys/ reach beyond its index.ts (never imported by src/).
export { FreshReads } from "./key-cache.js";
export { hashKey } from "./secret.js";
