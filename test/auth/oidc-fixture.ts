import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A person at the provider: what its ID token and userinfo say about them. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  /** What userinfo says instead, when it differs from the ID token (to see which one the app read). */
  userinfo?: { email?: string; email_verified?: boolean };
}

/** What the provider's (automatic) login page does next: sign in as this account, or deny. */
export type Decision = { login: string } | { deny: string };

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, ProviderAccount>;
  /** Read by the interaction handler at each login; tests set it before driving the browser. */
  next: Decision;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider 8) on a loopback port, with one confidential client
 * whose redirect URI is the app's callback; the email claims come from userinfo (or, with
 * `emailInIdToken`, in the ID token too). Its interaction pages are replaced by a handler that logs
 * in `next.login` (then grants openid email) or finishes with `access_denied`: the protocol (authorize,
 * PKCE, token, ID token, userinfo) is the library's, untouched.
 */
export async function startProvider(
  redirectUri: string,
  options: { emailInIdToken?: boolean } = {},
): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, ProviderAccount>();
  const fixture: TestProvider = {
    issuer,
    clientId: "cts-test",
    clientSecret: "cts-test-client-secret-0123456789abcdef",
    accounts,
    next: { deny: "no login chosen" },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: fixture.clientId,
        client_secret: fixture.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      const { userinfo, ...claims } = account;
      return {
        accountId: sub,
        claims: async (use: string) => ({ sub, ...claims, ...(use === "userinfo" ? userinfo : {}) }),
      };
    },
    // By default (conform) the email claims go to userinfo only when an access token is issued.
    conformIdTokenClaims: !options.emailInIdToken,
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
    pkce: { methods: ["S256"], required: () => true },
  });
  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    const next = fixture.next;
    if ("deny" in next) {
      const result = { error: "access_denied", error_description: next.deny };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === "login") {
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: next.login } },
        { mergeWithLastSubmission: false },
      );
    }
    const grant = new provider.Grant({
      accountId: details.session?.accountId ?? next.login,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope("openid email");
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };
  const handle = provider.callback();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/interaction/")) {
      interact(req, res).catch((err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      });
      return;
    }
    handle(req, res);
  });
  return fixture;
}

/** A browser's cookie jar for one site: names to values (paths ignored: the provider's names differ). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (value === "" || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Follows the provider's redirects as a browser would (with its cookies) until one leaves the provider;
 * returns that Location (the app's callback with `code`, `state`, `iss` or `error`).
 */
export async function browseProvider(start: string, issuer: string, jar: CookieJar): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(res.headers.getSetCookie());
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`the provider answered ${res.status} at ${url}: ${(await res.text()).slice(0, 500)}`);
    }
    await res.arrayBuffer().catch(() => undefined);
    const next = new URL(location, url);
    if (next.origin !== issuer) return next;
    url = next.href;
  }
  throw new Error("the provider redirected more than 10 times");
}

/** The Set-Cookie lines of an injected response. */
export function setCookiesOf(res: { headers: Record<string, unknown> }): string[] {
  const header = res.headers["set-cookie"] as string | string[] | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}
