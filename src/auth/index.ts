// Signing in (API.md §11) as other folders see it: the /auth routes and the one way a session starts.
export type { OidcDeps, OidcSettings } from "./oidc-settings.js";
export { type AuthSettings, authRoutes } from "./routes.js";
export { SessionBody, type SignInMethod, signIn } from "./sign-in.js";
