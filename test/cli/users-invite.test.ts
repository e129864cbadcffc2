import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { acceptInvitation } from "../../src/auth/index.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { openDatabase } from "../../src/db/connect.js";
import { DEFAULT_SESSION_SETTINGS } from "../../src/sessions/index.js";
import { recordingReply } from "../auth/invitation-helpers.js";
import { startMailServer } from "../notifications/mail-server.js";
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
      "email_queued",
      "expires_at",
      "invitation_id",
      "name",
      "role",
      "url",
      "user_id",
    ]);
    expect(json).toMatchObject({
      email: "Ada@Example.com",
      name: "Ada",
      role: "admin",
      created: false,
      email_queued: false,
    });
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

describe.skipIf(POSTGRES)("#34 cts users invite with email configured", () => {
  it("queues the invitation email directly and through the running server; its worker sends the printed link", {
    timeout: 300_000,
  }, async () => {
    const smtp = await startMailServer();
    try {
      const publicUrl = "https://cts.example.com";
      const env = ctsEnv({
        CTS_DATA_DIR: fromTemplate(join(root, "mail-data")),
        CTS_SMTP_URL: smtp.url,
        CTS_MAIL_FROM: "Commissions <cts@example.com>",
        CTS_PUBLIC_URL: publicUrl,
      });
      const LINK = inviteLink(publicUrl);

      // No server running: the CLI queues it in the data dir; nothing is sent until a worker runs.
      const direct = runCts(["users", "invite", "bea@example.com", "--role", "admin"], env);
      expect(direct.stderr).toBe("");
      expect(direct.status).toBe(0);
      const [url, blank, summary, queued, ...rest] = direct.stdout.trimEnd().split("\n");
      expect(url).toMatch(LINK);
      expect(blank).toBe("");
      expect(summary).toMatch(/^Invited usr_[0-9A-Z]{26} bea@example\.com \(admin, new user\)\. The link works once/);
      expect(queued).toBe(
        "The invitation email to bea@example.com is queued: the server's worker (cts serve or cts worker) sends it.",
      );
      expect(rest).toEqual([]);
      expect(smtp.received).toEqual([]);

      const server = await startServer(env);
      running.push(server);
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 60_000, interval: 100 });
      const [first] = smtp.received;
      expect(first!.to).toEqual(["bea@example.com"]);
      expect(first!.subject).toBe("You are invited to the Commission Tracking Service");
      expect(first!.parsed.from?.text).toBe('"Commissions" <cts@example.com>');
      // The link emailed is the one printed: one invitation, one token.
      expect(first!.text).toContain(`Accept your invitation: ${url}\n`);

      // Through the running server's owner socket, as JSON.
      const viaSocket = runCts(["users", "invite", "cy@example.com", "--json"], env);
      expect(viaSocket.stderr).toBe("");
      const json = JSON.parse(viaSocket.stdout);
      expect(json).toMatchObject({ email: "cy@example.com", role: "rep", created: true, email_queued: true });
      expect(json.url).toMatch(LINK);
      await vi.waitFor(() => expect(smtp.received).toHaveLength(2), { timeout: 60_000, interval: 100 });
      expect(smtp.received[1]!.to).toEqual(["cy@example.com"]);
      expect(smtp.received[1]!.text).toContain(`Accept your invitation: ${json.url}\n`);
      // No log line holds a token.
      for (const link of [url!, json.url as string]) expect(server.stdout()).not.toContain(LINK.exec(link)![1]);

      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      await smtp.close();
    }
  });
});
