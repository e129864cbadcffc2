import type { Db } from "../db/schema.js";
import type { RateLimitStore } from "../rate-limit/limiter.js";

/** OpenID Connect sign-in (API.md §11): the provider and this service's client there. */
export interface OidcSettings {
  /** CTS_OIDC_ISSUER: discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The deployment's 32-byte key (CTS_SECRET_KEY or the data dir's): seals the sign-in state cookie. */
  secretKey: Buffer;
}

/** What the public OIDC routes need beside the settings: they run before any actor exists. */
export interface OidcDeps {
  settings: OidcSettings;
  db: Db;
  env: string;
  clock: () => Date;
  /** The rate-limit store shared by every process: a state is spent once (limit 1 over its lifetime). */
  store: RateLimitStore;
}
