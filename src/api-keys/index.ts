// The api-keys feature as other folders see it: authentication, the key cache, the key services and schemas.
export { authenticate, knownKeyId } from "./authenticate.js";
export { KeyCache } from "./key-cache.js";
export { apiKeyRoutes } from "./routes.js";
export { ApiKey, CreatedApiKey, ScopeEnum } from "./schema.js";
export { createKey, ensureBootstrapKey, listKeys, revokeKey, setMcpAccess } from "./service.js";
