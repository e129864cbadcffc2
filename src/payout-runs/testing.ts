// What tests reach beyond the index: the pure netting (API.md §13) and the export headers.
export { ADP_HEADER } from "./export-adp.js";
export { GENERIC_HEADER } from "./export-generic.js";
export { GUSTO_HEADER } from "./export-gusto.js";
export { netPayee, recoveryCap } from "./netting.js";
