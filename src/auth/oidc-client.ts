import * as client from "openid-client";
import type { OidcSettings } from "./oidc-settings.js";
import type { SignInState } from "./oidc-state.js";

/** Why a sign-in at the provider did not give us a verified email. */
export class ProviderRefusal extends Error {
  constructor(
    readonly reason: "provider_refused" | "provider_error",
    message: string,
  ) {
    super(message);
    this.name = "ProviderRefusal";
  }
}

const DISCOVERY_TIMEOUT_SECONDS = 10;

/** The provider's metadata, discovered once per process (again after a failure). */
export class OidcClient {
  private config: Promise<client.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  private configuration(): Promise<client.Configuration> {
    this.config ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret,
        client.ClientSecretBasic(this.settings.clientSecret),
        {
          timeout: DISCOVERY_TIMEOUT_SECONDS,
          // config.ts allows http only for a loopback issuer (development and tests).
          ...(this.settings.issuer.startsWith("http:") && { execute: [client.allowInsecureRequests] }),
        },
      )
      .catch((err: unknown) => {
        this.config = undefined;
        throw new ProviderRefusal("provider_error", `discovery failed: ${(err as Error).message}`);
      });
    return this.config;
  }

  /** Where to send the browser: authorization code flow, PKCE S256, state and nonce, scope "openid email". */
  async authorizationUrl(redirectUri: string, state: SignInState): Promise<URL> {
    const config = await this.configuration();
    return client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid email",
      state: state.state,
      nonce: state.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(state.codeVerifier),
      code_challenge_method: "S256",
    });
  }

  /**
   * Exchanges the code (with the PKCE verifier), validates the ID token (signature, issuer, audience,
   * expiry, nonce) and returns the email and whether the provider verified it: from the ID token, or
   * from userinfo (for the same subject) when the ID token does not carry them.
   */
  async verifiedEmail(callbackUrl: URL, state: SignInState): Promise<{ email: string; verified: boolean } | null> {
    const config = await this.configuration();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: state.codeVerifier,
        expectedState: state.state,
        expectedNonce: state.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw refusalOf(err);
    }
    const claims = tokens.claims();
    if (!claims) throw new ProviderRefusal("provider_error", "no ID token");
    let { email, email_verified: verified } = claims as { email?: unknown; email_verified?: unknown };
    if (email === undefined || verified === undefined) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = info.email;
        verified = info.email_verified;
      } catch (err) {
        throw refusalOf(err);
      }
    }
    if (typeof email !== "string" || email === "") return null;
    return { email, verified: verified === true };
  }
}

/**
 * The provider said no (an `error` on the callback, or an error from its token or userinfo endpoint), or
 * what it answered failed a check (ID token signature, issuer, audience, expiry, nonce) or never came.
 */
function refusalOf(err: unknown): ProviderRefusal {
  if (err instanceof ProviderRefusal) return err;
  if (err instanceof client.AuthorizationResponseError || err instanceof client.ResponseBodyError) {
    return new ProviderRefusal("provider_refused", err.error);
  }
  return new ProviderRefusal("provider_error", (err as Error).message);
}
