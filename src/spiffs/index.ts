// The spiffs feature as other folders see it: its routes, services and schemas.
export { spiffRoutes } from "./routes.js";
export { CreateSpiffBody, ListSpiffsQuery, Spiff } from "./schema.js";
export { createSpiff, getSpiff, listSpiffs } from "./service.js";
