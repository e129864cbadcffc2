import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInvitation } from "../../src/auth/index.js";
import { TOOLS } from "../../src/mcp/tools.js";
import { OWNER_COMMANDS } from "../../src/owner/commands.js";
import { hashPassword } from "../../src/passwords/index.js";
import { newToken, sha256Hex } from "../../src/sessions/index.js";
import { createUser, errorOf, freshIp, uniqueEmail } from "../factories.js";
import { createTestApp, type TestApp } from "../harness.js";
import { operations } from "../route-case.js";
import { signedInAs } from "../sessions.js";
import { tokenOf } from "./invitation-helpers.js";

/**
 * #26: every way to set a password applies the same rules, the zxcvbn estimate included. The route
 * table (the served OpenAPI document) names every body field about a password; each is either set
 * here (a row of SETTERS) or only checked (VERIFY_ONLY), so a new route with one fails until it has a row.
 */
const CURRENT = "Lantern-Orchard-Quietly-48";
const STRONG = "Harbour-Lantern-Quietly-52";
const REPEATED =
  'Repeated characters like "aaa" are easy to guess. Add more words that are less common. Avoid repeated words and characters.';
const LIKE_COMMON = "This is similar to a commonly used password. Add more words that are less common.";
const WEAK: [string, string][] = [
  ["aaaaaaaaaaaa", `is too easy to guess (strength 0 of 4, 3 needed): ${REPEATED}`],
  [" ".repeat(12), `is too easy to guess (strength 0 of 4, 3 needed): ${REPEATED}`],
  ["qwertyuiopasdfgh", `is too easy to guess (strength 1 of 4, 3 needed): ${LIKE_COMMON}`],
  ["1234567890ab", `is too easy to guess (strength 1 of 4, 3 needed): ${LIKE_COMMON}`],
];

let t: TestApp;
let currentHash: string;

beforeAll(async () => {
  t = await createTestApp();
  currentHash = await hashPassword(CURRENT);
});
afterAll(async () => {
  await t?.close();
});

interface Setter {
  /** The body field that carries the new password. */
  field: string;
  /** The success status. */
  ok: number;
  /** Sends `password` as a new password for a fresh person. */
  send(password: string): Promise<LightMyRequestResponse>;
}

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: `/api/v1${url}`, payload, headers, remoteAddress: freshIp() });

const SETTERS: Record<string, Setter> = {
  "POST /api/v1/auth/invitations/accept": {
    field: "password",
    ok: 200,
    send: async (password) => {
      const user = await createUser(t, { email: uniqueEmail("accept"), name: "Avery Accept" });
      const { url } = await createInvitation(t.ownerCtx(), user.id, "http://x");
      return post("/auth/invitations/accept", { token: tokenOf(url), password });
    },
  },
  "POST /api/v1/auth/password": {
    field: "new_password",
    ok: 204,
    send: async (password) => {
      const s = await signedInAs(t, { email: uniqueEmail("change"), name: "Casey Change" });
      await t.db.db.updateTable("users").set({ password_hash: currentHash }).where("id", "=", s.user.id).execute();
      return post("/auth/password", { current_password: CURRENT, new_password: password }, s.headers("POST"));
    },
  },
  "POST /api/v1/auth/password-reset/confirm": {
    field: "password",
    ok: 200,
    send: async (password) => {
      const user = await createUser(t, { email: uniqueEmail("reset"), name: "Riley Reset" });
      const token = newToken();
      const now = new Date();
      await sql`INSERT INTO password_resets (id, user_id, token_hash, expires_at, created_at)
        VALUES (${`pwr_${token.slice(0, 12)}`}, ${user.id}, ${sha256Hex(token)}, ${new Date(now.getTime() + 3_600_000)}, ${now})`.execute(
        t.db.db,
      );
      return post("/auth/password-reset/confirm", { token, password });
    },
  },
};

/** Body fields that carry a password to check, never one to set. */
const VERIFY_ONLY = ["POST /api/v1/auth/login password", "POST /api/v1/auth/password current_password"];

const aboutPasswords = (keys: string[]) => keys.filter((key) => /password/i.test(key));

describe("#26 every way to set a password", () => {
  it("the route table's password fields are the rows of SETTERS and VERIFY_ONLY", async () => {
    const found = (await operations(t)).flatMap((op) =>
      aboutPasswords(Object.keys(op.body ?? {})).map((field) => `${op.method} ${op.path} ${field}`),
    );
    const known = [...Object.entries(SETTERS).map(([route, s]) => `${route} ${s.field}`), ...VERIFY_ONLY];
    expect(found.sort()).toEqual(known.sort());
  });

  it("no owner command (the CLI) and no MCP tool takes a password", () => {
    const commands = Object.entries(OWNER_COMMANDS).flatMap(([name, c]) =>
      aboutPasswords(Object.keys(c.args.shape)).map((field) => `${name} ${field}`),
    );
    const tools = TOOLS.flatMap((tool) =>
      aboutPasswords(Object.keys(tool.input.shape)).map((f) => `${tool.name} ${f}`),
    );
    expect([...commands, ...tools]).toEqual([]);
  });

  describe.each(Object.entries(SETTERS))("%s", (_route, setter) => {
    it.each(WEAK)(
      "%j → 422 validation_error naming the field, with the estimator's hint",
      async (password, message) => {
        const res = await setter.send(password);
        expect(res.statusCode, res.body).toBe(422);
        const error = errorOf(res);
        expect(error.code).toBe("validation_error");
        expect(error.details).toEqual([{ param: setter.field, message }]);
        expect(error.message).toBe(`Invalid password: ${setter.field} ${message}`);
      },
    );

    it("a strong password is set", async () => {
      const res = await setter.send(STRONG);
      expect(res.statusCode, res.body).toBe(setter.ok);
    });
  });
});
