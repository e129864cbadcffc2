// What the tests of spiffs/ reach beyond its index.ts (never imported by src/).
export { SpiffWritten } from "./schema.js";
