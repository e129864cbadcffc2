import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer } from "../../src/notifications/index.js";
import { createUser } from "../factories.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";
import { deliverAll, mailerFor, ORIGIN, switchKind } from "./deliver.js";
import { type MailServer, startMailServer } from "./mail-server.js";

let t: TestApp;
let api: Api;
let smtp: MailServer;
let mailer: Mailer;

beforeAll(async () => {
  smtp = await startMailServer();
  mailer = await mailerFor(smtp.url);
  t = await createTestApp({ mailOrigin: ORIGIN });
  api = new Api(t);
});
afterAll(async () => {
  mailer?.close();
  await t?.close();
  await smtp?.close();
});

const today = () => new Date().toISOString().slice(0, 10);
// Assigning a plan also asks for its acknowledgement by email (plan-acknowledgement-mail.test.ts): these
// tests look at the other kinds.
const ACK_SUBJECT = "Please read and acknowledge your plan: ";
const to = (email: string) =>
  smtp.received.filter((m) => m.to.includes(email.toLowerCase()) && !m.subject.startsWith(ACK_SUBJECT));

async function deliveriesOf(userId: string) {
  const { rows } = await sql<{ kind: string; status: string; attempt_count: number; last_error: string | null }>`
    SELECT kind, status, attempt_count, last_error FROM notification_deliveries
    WHERE user_id = ${userId} AND kind <> 'plan_acknowledgement' ORDER BY created_at, id`.execute(t.db.db);
  return rows;
}

describe("deal, dispute and payout messages through a real SMTP server", () => {
  it("a deal approved tells each person credited, once, with the deal's link on CTS_PUBLIC_URL", async () => {
    const { user } = await repOnPlan(api);
    const partner = await createUser(t, { role: "rep" });
    const deal = await createDeal(api, user.id, {
      opportunity_name: "Acme renewal",
      splits: [
        { user_id: user.id, percent: 60 },
        { user_id: partner.id, percent: 40 },
      ],
    });
    ok(await api.post(`/deals/${deal.id}/approve`));
    await deliverAll(t, mailer);
    await deliverAll(t, mailer); // a second pass finds nothing left: never twice
    for (const person of [user, partner]) {
      const got = to(person.email);
      expect(got).toHaveLength(1);
      expect(got[0]!.subject).toBe("Deal approved: Acme renewal");
      expect(got[0]!.parsed.from?.text).toBe('"Commissions" <cts@example.com>');
      expect(got[0]!.text).toContain(`Hello ${person.name},`);
      expect(got[0]!.text).toContain(`Open the deal: ${ORIGIN}/deals/${deal.id}`);
      expect(got[0]!.html).toContain(`href="${ORIGIN}/deals/${deal.id}"`);
      expect(await deliveriesOf(person.id)).toEqual([
        { kind: "deal_approved", status: "sent", attempt_count: 1, last_error: null },
      ]);
    }
  });

  it("rejected and cancelled deals are told too", async () => {
    const { user } = await repOnPlan(api);
    const rejected = await createDeal(api, user.id, { opportunity_name: "Dup deal" });
    ok(await api.post(`/deals/${rejected.id}/reject`, { reason: "duplicate" }));
    const cancelled = await createDeal(api, user.id, { opportunity_name: "Churned deal" });
    ok(await api.post(`/deals/${cancelled.id}/approve`));
    ok(await api.post(`/deals/${cancelled.id}/cancel`, { reason: "churned", effective_date: "2026-08-01" }));
    await deliverAll(t, mailer);
    expect(
      to(user.email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(["Deal approved: Churned deal", "Deal cancelled: Churned deal", "Deal rejected: Dup deal"]);
  });

  it("a dispute opened tells the admins; resolved, it tells the people credited", async () => {
    const admin = await createUser(t, { role: "admin" });
    const { user } = await repOnPlan(api);
    const deal = await createDeal(api, user.id, { opportunity_name: "Disputed deal" });
    ok(await api.post(`/deals/${deal.id}/approve`));
    const dispute = ok<{ id: string }>(await api.post(`/deals/${deal.id}/disputes`, { reason: "wrong_amount" }), 201);
    await deliverAll(t, mailer);
    const opened = to(admin.email).filter((m) => m.subject === "Dispute opened on Disputed deal");
    expect(opened).toHaveLength(1);
    expect(opened[0]!.text).toContain(`${ORIGIN}/dispute-queue`);
    expect(opened[0]!.text).toContain("A dispute (wrong_amount)");
    ok(await api.post(`/disputes/${dispute.id}/resolve`, { outcome: "denied", note: "the split is right" }));
    await deliverAll(t, mailer);
    const resolved = to(user.email).filter((m) => m.subject === "Your dispute on Disputed deal was answered");
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.text).toContain("was resolved: denied.");
    expect(resolved[0]!.text).toContain("Note: the split is right");
    expect(resolved[0]!.text).toContain(`${ORIGIN}/disputes`);
  });

  it("a payout run finalized tells each person paid their amount", async () => {
    const { user } = await repOnPlan(api);
    const deal = await createDeal(api, user.id, { arr_amount: 12345.67 });
    ok(await api.post(`/deals/${deal.id}/approve`));
    const run = ok<{ id: string; period_start: string; period_end: string }>(
      await api.post("/payout-runs", { through: today(), pay_date: "2026-12-15", user_ids: [user.id] }),
      201,
    );
    const finalized = ok<{ payees: { user_id: string; net: unknown }[] }>(
      await api.post(`/payout-runs/${run.id}/finalize`),
    );
    expect(finalized.payees.map((p) => p.user_id)).toEqual([user.id]);
    await deliverAll(t, mailer);
    const got = to(user.email).filter((m) => m.subject.startsWith("Your statement for"));
    expect(got).toHaveLength(1);
    expect(got[0]!.subject).toBe(`Your statement for ${run.period_start} to ${run.period_end} is ready`);
    // 10% of 12,345.67 (below quota): 1,234.567 → 1,234.57.
    expect(got[0]!.text).toContain("Amount: USD 1,234.57");
    expect(got[0]!.text).toContain("it will be paid on 2026-12-15");
    expect(got[0]!.text).toContain(`See your statement: ${ORIGIN}/statements`);
  });
});

describe("preferences", () => {
  it("a person who turned a kind off gets none of it; other kinds still come", async () => {
    const { user } = await repOnPlan(api);
    const session = await signedInAs(t, user);
    const before = ok<{ kinds: { kind: string; enabled: boolean; switchable: boolean }[] }>(
      await t.app.inject({ method: "GET", url: "/api/v1/me/notifications", headers: session.headers() }),
    );
    expect(before.kinds.find((k) => k.kind === "deal_approved")).toEqual({
      kind: "deal_approved",
      enabled: true,
      switchable: true,
    });
    expect(before.kinds.find((k) => k.kind === "password_reset")).toEqual({
      kind: "password_reset",
      enabled: true,
      switchable: false,
    });
    await switchKind(t, session, "deal_approved", false);
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/v1/me/notifications",
      headers: session.headers("POST"),
      payload: { kinds: { password_reset: false } },
    });
    expect(refused.statusCode).toBe(422);
    for (const name of ["Quiet one", "Quiet two"]) {
      const deal = await createDeal(api, user.id, { opportunity_name: name });
      ok(await api.post(`/deals/${deal.id}/approve`));
    }
    const loud = await createDeal(api, user.id, { opportunity_name: "Loud" });
    ok(await api.post(`/deals/${loud.id}/reject`, { reason: "duplicate" }));
    await deliverAll(t, mailer);
    expect(to(user.email).map((m) => m.subject)).toEqual(["Deal rejected: Loud"]);
    expect((await deliveriesOf(user.id)).map((d) => d.kind)).toEqual(["deal_rejected"]);
  });

  it("an API key has no notification settings (403)", async () => {
    const res = await api.get("/me/notifications");
    expect(res.statusCode).toBe(403);
  });
});

describe("refusals and retries", () => {
  it("a 5xx refusal is logged as failed, once, and never retried; a 4xx is retried later", async () => {
    const { user } = await repOnPlan(api);
    const other = await repOnPlan(api);
    smtp.refuse(user.email, 550);
    smtp.refuse(other.user.email, 451);
    for (const who of [user, other.user]) {
      const deal = await createDeal(api, who.id);
      ok(await api.post(`/deals/${deal.id}/approve`));
    }
    const now = new Date();
    await deliverAll(t, mailer, now);
    await deliverAll(t, mailer, new Date(now.getTime() + 24 * 3_600_000));
    expect(to(user.email)).toHaveLength(0);
    const [failed] = await deliveriesOf(user.id);
    expect(failed).toMatchObject({ status: "failed", attempt_count: 1 });
    expect(failed!.last_error).toMatch(/^550 /);
    // 451: tried now, then again when due (30 s ± 20 %, then 2 min …), still pending after a day of retries.
    const [retried] = await deliveriesOf(other.user.id);
    expect(retried).toMatchObject({ status: "pending" });
    expect(retried!.attempt_count).toBe(2);
    expect(retried!.last_error).toMatch(/^451 /);
    const admin = await signedInAs(t, { role: "admin" });
    const log = ok<{ data: { user_id: string; status: string; last_error: string | null; to: string }[] }>(
      await t.app.inject({
        method: "GET",
        url: `/api/v1/notifications/deliveries?user_id=${user.id}&kind=deal_approved`,
        headers: admin.headers(),
      }),
    );
    expect(log.data).toEqual([
      expect.objectContaining({ user_id: user.id, status: "failed", to: user.email, last_error: failed!.last_error }),
    ]);
    expect(JSON.stringify(log)).not.toContain("s3cret-pass");
  });
});

describe("without email configured", () => {
  it("events queue nothing to send, and the queue is emptied", async () => {
    const { user } = await repOnPlan(api);
    const deal = await createDeal(api, user.id);
    ok(await api.post(`/deals/${deal.id}/approve`));
    await deliverAll(t, undefined);
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM notification_queue`.execute(t.db.db);
    expect(Number(rows[0]!.n)).toBe(0);
    expect(await deliveriesOf(user.id)).toEqual([]);
  });
});
