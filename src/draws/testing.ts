// What tests may reach beyond the index.
export { balanceOf } from "./records.js";
