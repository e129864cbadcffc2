import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

const CLIENT = { CTS_OIDC_CLIENT_ID: "cts", CTS_OIDC_CLIENT_SECRET: "s3cret" };
const ISSUER_RULE =
  "CTS_OIDC_ISSUER must be the provider's https issuer URL without query or fragment, e.g. https://login.example.com (http only for a loopback provider, never with CTS_ENV=live)";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("#15 CTS_OIDC_* configuration", () => {
  it("none set: no OpenID Connect", () => {
    expect(loadConfig({}).oidc).toBeUndefined();
  });

  it("all three: the issuer as given, the client id and secret", () => {
    const config = loadConfig({ CTS_OIDC_ISSUER: "https://login.example.com/tenant/", ...CLIENT });
    expect(config.oidc).toEqual({
      issuer: "https://login.example.com/tenant/",
      clientId: "cts",
      clientSecret: "s3cret",
    });
  });

  it.each([
    [{ CTS_OIDC_ISSUER: "https://login.example.com" }, "CTS_OIDC_CLIENT_ID, CTS_OIDC_CLIENT_SECRET"],
    [{ CTS_OIDC_CLIENT_ID: "cts" }, "CTS_OIDC_ISSUER, CTS_OIDC_CLIENT_SECRET"],
    [{ CTS_OIDC_ISSUER: "https://login.example.com", CTS_OIDC_CLIENT_ID: "cts" }, "CTS_OIDC_CLIENT_SECRET"],
  ])("a partial set %j stops start naming what is missing", (env, missing) => {
    expect(problemsOf(env)).toEqual([
      `CTS_OIDC_ISSUER, CTS_OIDC_CLIENT_ID, CTS_OIDC_CLIENT_SECRET must be set together for OpenID Connect sign-in; missing: ${missing}`,
    ]);
  });

  it.each([
    ["http://login.example.com"],
    ["login.example.com"],
    ["https://login.example.com/?tenant=1"],
    ["https://login.example.com/#x"],
    ["https://user@login.example.com"],
    ["ftp://127.0.0.1"],
  ])("issuer %s is refused", (issuer) => {
    expect(problemsOf({ CTS_OIDC_ISSUER: issuer, ...CLIENT })).toEqual([ISSUER_RULE]);
  });

  it.each([["http://127.0.0.1:9000"], ["http://localhost:9000/realms/x"], ["http://[::1]:9000"]])(
    "a loopback http issuer %s is accepted for development",
    (issuer) => {
      expect(loadConfig({ CTS_OIDC_ISSUER: issuer, ...CLIENT }).oidc?.issuer).toBe(issuer);
    },
  );

  it("CTS_ENV=live refuses a loopback http issuer", () => {
    const problems = problemsOf({
      CTS_ENV: "live",
      CTS_PUBLIC_URL: "https://cts.example.com",
      CTS_TRUST_PROXY: "1",
      CTS_OIDC_ISSUER: "http://127.0.0.1:9000",
      ...CLIENT,
    });
    expect(problems).toEqual([ISSUER_RULE]);
  });
});
