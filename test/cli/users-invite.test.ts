import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acceptInvitation } from "../../src/auth/index.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { openDatabase } from "../../src/db/connect.js";
import { DEFAULT_SESSION_SETTINGS } from "../../src/sessions/index.js";
import { recordingReply } from "../auth/invitation-helpers.js";
import { ctsEnv, fromTemplate, type RunningServer, runCts, startServer } from "./spawn.js";

const POSTGRES = !!process.env.TEST_DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), "cts-invite-"));
const dataDir = join(root, "data");
if (!POSTGRES) fromTemplate(dataDir);
const running: RunningServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** An invitation link of this origin, capturing its token. */
const inviteLink = (origin: string) => new RegExp(`^${origin.replace(/\./g, "\\.")}/invite#([A-Za-z0-9_-]{43})$`);

describe.skipIf(POSTGRES)("#15 cts users invite", () => {
  it("--help says what it does, its defaults and where the link's origin comes from", () => {
    const r = runCts(["users", "invite", "--help"], ctsEnv({ CTS_DATA_DIR: dataDir }));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Usage: cts users invite [options] <email>");
    for (const phrase of [
      "one-time sign-up link (valid 72 hours)",
      "role: rep unless --role",
      "The link's origin is the running server's: CTS_PUBLIC_URL, else the address it listens on",
      "with no server running, the same from this configuration",
      "--role <role>",
      "rep | manager | admin | finance",
      "--name <name>",
      "--json",
    ]) {
      expect(r.stdout.replace(/\s+/g, " ")).toContain(phrase);
    }
  });

  it("refuses an unknown role before touching anything", () => {
    const r = runCts(["users", "invite", "a@example.com", "--role", "boss"], ctsEnv({ CTS_DATA_DIR: dataDir }));
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr: 'cts: --role must be one of rep, manager, admin, finance, not "boss"\n',
    });
  });

  it("creates the first admin through a running server, again directly, and the printed link signs them in", {
    timeout: 300_000,
  }, async () => {
    // The server listens on a port the system picks; this CLI's own configuration says the default 3000.
    const env = ctsEnv({ CTS_DATA_DIR: dataDir });
    const server = await startServer(env);
    running.push(server);
    expect(server.port).not.toBe(3000);
    const URL_LINE = inviteLink(`http://127.0.0.1:${server.port}`);

    // Through the running server's owner socket.
    const first = runCts(["users", "invite", "Ada@Example.com", "--role", "admin"], env);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const [urlLine, blank, summary] = first.stdout.trimEnd().split("\n");
    expect(urlLine).toMatch(URL_LINE);
    expect(blank).toBe("");
    expect(summary).toMatch(
      /^Invited usr_[0-9A-Z]{26} Ada@Example\.com \(admin, new user\)\. The link works once, until \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z; it is shown only now\.$/,
    );
    // Nothing the server logged holds the token.
    const firstToken = URL_LINE.exec(urlLine!)![1]!;
    expect(server.stdout()).not.toContain(firstToken);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    // Directly on the data dir: the same person (email compared case-insensitively) keeps name and role; with
    // no server running, the link's origin is computed from this configuration.
    const second = runCts(["users", "invite", "ada@example.com", "--json"], env);
    expect(second.stderr).toBe("");
    const json = JSON.parse(second.stdout);
    expect(Object.keys(json).sort()).toEqual([
      "created",
      "email",
      "expires_at",
      "invitation_id",
      "name",
      "role",
      "url",
      "user_id",
    ]);
    expect(json).toMatchObject({ email: "Ada@Example.com", name: "Ada", role: "admin", created: false });
    const DIRECT_LINE = inviteLink("http://127.0.0.1:3000");
    expect(json.url).toMatch(DIRECT_LINE);
    const token = DIRECT_LINE.exec(json.url)![1]!;

    const database = await openDatabase({ dataDir: join(dataDir, "pgdata") });
    try {
      const db = database.db;
      const stored = await db.selectFrom("invitations").select(["token_hash", "cancelled_at"]).orderBy("id").execute();
      expect(stored.map((r) => [r.token_hash, r.cancelled_at !== null])).toEqual([
        [createHash("sha256").update(firstToken).digest("hex"), true],
        [createHash("sha256").update(token).digest("hex"), false],
      ]);
      const audits = await db.selectFrom("audit_events").select(["action", "actor_type"]).orderBy("id").execute();
      expect(audits.filter((a) => a.action !== "api_key.create")).toEqual([
        { action: "user.create", actor_type: "owner" },
        { action: "invitation.create", actor_type: "owner" },
        { action: "invitation.create", actor_type: "owner" },
      ]);

      const { reply, headers } = recordingReply();
      const session = await acceptInvitation(
        makeCtx(db, "live", OWNER),
        reply,
        { token, password: "a long and private passphrase" },
        { settings: DEFAULT_SESSION_SETTINGS, secure: false },
      );
      expect(session.user).toMatchObject({ id: json.user_id, role: "admin" });
      expect(headers["set-cookie"]).toMatch(/^cts_session=/);
    } finally {
      await database.close();
    }
  });
});
