import pino from "pino";
import { createMailer, type Mailer, notificationSource } from "../../src/notifications/index.js";
import { TEST_SECRET_KEY, type TestApp } from "../harness.js";

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
