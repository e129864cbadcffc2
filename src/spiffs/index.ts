// The spiffs feature as other folders see it: its routes, services and schemas.

export { createSpiff } from "./create.js";
export { listSpiffs } from "./list.js";
export { getSpiff } from "./read.js";
export { spiffRoutes } from "./routes.js";
export { CreateSpiffBody, ListSpiffsQuery, Spiff } from "./schema.js";
