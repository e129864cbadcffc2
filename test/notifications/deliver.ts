import pino from "pino";
import { expect } from "vitest";
import { createMailer, type Mailer, notificationSource } from "../../src/notifications/index.js";
import { ok } from "../factories-commissions.js";
import { TEST_SECRET_KEY, type TestApp } from "../harness.js";
import type { SignedInSession } from "../sessions.js";

export const ORIGIN = "https://cts.example.com";
export const FROM = "Commissions <cts@example.com>";

/** Runs the notification work source until nothing is due at `now` (the worker loop, without its timer). */
export async function deliverAll(t: TestApp, mailer: Mailer | undefined, now = t.clock?.now() ?? new Date()) {
  const source = notificationSource({
    db: t.db.db,
    logger: pino({ level: "silent" }),
    mail: mailer && { mailer, publicUrl: ORIGIN, secretKey: TEST_SECRET_KEY },
    clock: () => now,
    random: () => 0.5,
  });
  for (;;) {
    const claimed = await source.claim("test-worker", 10, now);
    if (claimed.length === 0) return;
    for (const item of claimed) await source.run(item, "test-worker");
  }
}

export function mailerFor(url: string): Promise<Mailer> {
  return createMailer(url, FROM);
}

/** Turns one switchable kind of message on or off for the signed-in person; the answer must say so. */
export async function switchKind(t: TestApp, session: SignedInSession, kind: string, enabled: boolean): Promise<void> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/me/notifications",
    headers: session.headers("POST"),
    payload: { kinds: { [kind]: enabled } },
  });
  expect(ok<{ kinds: { kind: string; enabled: boolean }[] }>(res).kinds).toContainEqual({
    kind,
    enabled,
    switchable: true,
  });
}
