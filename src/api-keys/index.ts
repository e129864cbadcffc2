// The api-keys feature as other folders see it: authentication, the key cache, the key services and schemas.
export { authenticate, authenticateCached, knownKeyId, type PresentedKey, presentedKey } from "./authenticate.js";
export { createKey, ensureBootstrapKey } from "./create.js";
export { KeyCache } from "./key-cache.js";
export { listKeys } from "./list.js";
export { setMcpAccess } from "./mcp-access.js";
export { revokeKey } from "./revoke.js";
export { apiKeyRoutes } from "./routes.js";
export { ApiKey, CreatedApiKey, ScopeEnum } from "./schema.js";
