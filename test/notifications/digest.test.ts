import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deal } from "../../src/deals/index.js";
import { type Fixed, moneyText, parse, plus, ZERO } from "../../src/money/index.js";
import { dueDigest } from "../../src/notifications/digest-schedule.js";
import type { Mailer } from "../../src/notifications/index.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, createDeal, ok, rejectAsOwner } from "../factories-commissions.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { type SignedInSession, signedInAs } from "../sessions.js";
import { deliverAll, mailerFor, ORIGIN, switchKind } from "./deliver.js";
import { type MailServer, startMailServer } from "./mail-server.js";

// The weekly digest (docs/notifications.md): Mondays 08:00 UTC, to each active person who manages
// someone and turned it on; once per manager and ISO week, whatever restarts and workers do.

const clock = new TestClock(Date.parse("2026-11-16T07:00:00.000Z")); // Monday of 2026-W47, before 08:00
let t: TestApp;
let api: Api;
let smtp: MailServer;
let mailer: Mailer;

beforeAll(async () => {
  smtp = await startMailServer();
  mailer = await mailerFor(smtp.url);
  t = await createTestApp({ mailOrigin: ORIGIN, clock });
  api = new Api(t);
});
afterAll(async () => {
  mailer?.close();
  await t?.close();
  await smtp?.close();
});

const at = (iso: string) => {
  clock.ms = Date.parse(iso);
  return clock.now();
};
const digestsTo = (user: User) =>
  smtp.received.filter((m) => m.to.includes(user.email.toLowerCase()) && m.subject.startsWith("Your team's week"));

/** A fresh session at the clock's time (the clock moves weeks: an older one has expired). */
const as = (user: User) => signedInAs(t, user);

async function turnOn(user: User) {
  await switchKind(t, await as(user), "weekly_digest", true);
}

/** The digest's lines computed from the manager's own GET /deals (the API's figures for those deals). */
async function expectedFromApi(manager: User, from: string, to: string): Promise<string[]> {
  const session = await as(manager);
  const res = await t.app.inject({ url: "/api/v1/deals?per_page=100", headers: session.headers() });
  const deals = ok<{ data: Deal[] }>(res).data;
  const inWeek = (ts: string | null) => ts !== null && ts >= from && ts < to;
  const line = (label: string, picked: Deal[]) => {
    if (picked.length === 0) return `${label}: none`;
    const sums = new Map<string, Fixed>();
    for (const d of picked) sums.set(d.currency, plus(sums.get(d.currency) ?? ZERO, parse(String(d.arr_amount))));
    const amounts = [...sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, sum]) => {
        const [whole, fraction] = moneyText(sum, currency).split(".");
        return `${currency} ${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction ? `.${fraction}` : ""}`;
      });
    return `${label}: ${[`${picked.length} deal${picked.length === 1 ? "" : "s"}`, ...amounts].join(", ")}`;
  };
  return [
    line(
      "Approved",
      deals.filter((d) => inWeek(d.approved_at)),
    ),
    line(
      "Rejected",
      deals.filter((d) => d.status === "rejected" && inWeek(d.updated_at)),
    ),
    line(
      "Waiting for approval",
      deals.filter((d) => d.status === "pending"),
    ),
  ];
}

async function digestRows() {
  const { rows } = await sql<{ user_id: string; dedupe_key: string; status: string }>`
    SELECT user_id, dedupe_key, status FROM notification_deliveries WHERE kind = 'weekly_digest'
    ORDER BY created_at, id`.execute(t.db.db);
  return rows;
}

describe("the weekly digest", () => {
  let manager: SignedInSession;
  let lead: User; // a manager below `manager` who did not turn the digest on
  let rep: SignedInSession; // manages nobody, turned it on
  let deep: User; // reports to `lead`: in `manager`'s team too
  let outsider: User;

  it("is off by default, and nothing is queued for a week before anyone turned it on", async () => {
    // A worker already ran this deployment's latest due week (2026-W46) before anyone opted in.
    await deliverAll(t, mailer, clock.now());
    manager = await signedInAs(t, { role: "manager", name: "Maria Manager" });
    lead = await createUser(t, { role: "manager", manager_id: manager.user.id });
    rep = await signedInAs(t, { role: "rep", manager_id: manager.user.id });
    deep = await createUser(t, { role: "rep", manager_id: lead.id });
    outsider = await createUser(t, { role: "rep" });
    const settings = ok<{ kinds: { kind: string; enabled: boolean; switchable: boolean }[] }>(
      await t.app.inject({ url: "/api/v1/me/notifications", headers: manager.headers() }),
    );
    expect(settings.kinds.find((k) => k.kind === "weekly_digest")).toEqual({
      kind: "weekly_digest",
      enabled: false,
      switchable: true,
    });
    await turnOn(manager.user);
    await turnOn(rep.user);
    // Approved before the next window opens (Monday 08:00): in 2026-W47's digest, not 2026-W48's.
    const early = await createDeal(api, lead.id, { arr_amount: 999 });
    await approveAsOwner(t, early.id);
    await deliverAll(t, mailer, at("2026-11-16T07:59:59.999Z"));
    expect(await digestRows()).toEqual([]);
  });

  it("Monday 08:00 UTC: one digest to the manager who turned it on, the week before in it", async () => {
    await deliverAll(t, mailer, at("2026-11-16T08:00:00.000Z"));
    const got = digestsTo(manager.user);
    expect(got).toHaveLength(1);
    expect(got[0]!.subject).toBe("Your team's week: 2026-11-09 to 2026-11-16");
    expect(got[0]!.text).toContain("Approved: 1 deal, USD 999.00\n");
    expect(await digestRows()).toEqual([
      { user_id: manager.user.id, dedupe_key: `digest:2026-W47:${manager.user.id}:weekly_digest`, status: "sent" },
    ]);
  });

  it("a week later, the team's exact figures per currency, as the API reports those deals", async () => {
    at("2026-11-19T10:00:00.000Z");
    const approved = [
      await createDeal(api, lead.id, { arr_amount: 1234.5 }),
      await createDeal(api, deep.id, { arr_amount: 300, currency: "EUR" }),
      await createDeal(api, rep.user.id, { arr_amount: 1000.25 }),
      await createDeal(api, deep.id, { arr_amount: 120000, currency: "JPY" }),
    ];
    for (const deal of approved) await approveAsOwner(t, deal.id);
    // A dispute opened on one of them: still approved this week, and an open dispute.
    await approveAsOwner(t, (await createDeal(api, rep.user.id, { arr_amount: 10 })).id, "disputed");
    const rejected = await createDeal(api, rep.user.id, { arr_amount: 50 });
    await rejectAsOwner(t, rejected.id);
    await createDeal(api, deep.id, { arr_amount: 75.5 });
    await createDeal(api, lead.id, { arr_amount: 5000, currency: "EUR" });
    // Not the manager's team: counted nowhere.
    await approveAsOwner(t, (await createDeal(api, outsider.id, { arr_amount: 777 })).id);
    // A tick mid-week sends nothing new.
    await deliverAll(t, mailer, at("2026-11-20T12:00:00.000Z"));
    expect(digestsTo(manager.user)).toHaveLength(1);

    await deliverAll(t, mailer, at("2026-11-23T08:00:00.000Z"));
    const got = digestsTo(manager.user);
    expect(got).toHaveLength(2);
    const digest = got[1]!;
    expect(digest.subject).toBe("Your team's week: 2026-11-16 to 2026-11-23");
    const figures = await expectedFromApi(manager.user, "2026-11-16T08:00:00.000Z", "2026-11-23T08:00:00.000Z");
    expect(figures).toEqual([
      "Approved: 5 deals, EUR 300.00, JPY 120,000, USD 2,244.75",
      "Rejected: 1 deal, USD 50.00",
      "Waiting for approval: 2 deals, EUR 5,000.00, USD 75.50",
    ]);
    expect(digest.text).toBe(
      [
        `Hello ${manager.user.name},`,
        "",
        "Your team's week from 2026-11-16 08:00 to 2026-11-23 08:00 UTC (3 people report to you):",
        ...figures,
        "Open disputes: 1",
        "",
        `Open your team: ${ORIGIN}/team`,
        "",
        "— Commission Tracking Service",
        "",
      ].join("\n"),
    );
    expect(digest.html).toContain(`href="${ORIGIN}/team"`);
    expect(digest.html).toContain("<p>Approved: 5 deals, EUR 300.00, JPY 120,000, USD 2,244.75</p>");
  });

  it("nobody else gets one: not a manager who did not turn it on, not a rep who manages nobody", () => {
    for (const person of [lead, rep.user, deep, outsider]) expect(digestsTo(person)).toEqual([]);
  });

  it("a second worker, or a restart, in the same week sends no second one", async () => {
    await Promise.all([
      deliverAll(t, mailer, at("2026-11-23T08:00:01.000Z")),
      deliverAll(t, mailer, at("2026-11-23T08:00:01.000Z")),
    ]);
    await deliverAll(t, mailer, at("2026-11-29T23:59:59.999Z"));
    expect(digestsTo(manager.user)).toHaveLength(2);
    expect((await digestRows()).map((r) => r.dedupe_key)).toEqual([
      `digest:2026-W47:${manager.user.id}:weekly_digest`,
      `digest:2026-W48:${manager.user.id}:weekly_digest`,
    ]);
  });

  it("the next week sends again; turned off, none the week after", async () => {
    await deliverAll(t, mailer, at("2026-11-30T08:00:00.000Z"));
    const got = digestsTo(manager.user);
    expect(got).toHaveLength(3);
    expect(got[2]!.subject).toBe("Your team's week: 2026-11-23 to 2026-11-30");
    expect(got[2]!.text).toContain("Approved: none\nRejected: none\nWaiting for approval: 2 deals");
    const session = await as(manager.user);
    await switchKind(t, session, "weekly_digest", false);
    await deliverAll(t, mailer, at("2026-12-07T08:00:00.000Z"));
    expect(digestsTo(manager.user)).toHaveLength(3);
  });
});

describe("which week's digest is due", () => {
  it.each([
    ["2026-11-23T07:59:59.999Z", "2026-W47", "2026-11-16T08:00:00.000Z"],
    ["2026-11-23T08:00:00.000Z", "2026-W48", "2026-11-23T08:00:00.000Z"],
    ["2026-11-29T23:59:59.999Z", "2026-W48", "2026-11-23T08:00:00.000Z"],
    ["2026-12-28T09:00:00.000Z", "2026-W53", "2026-12-28T08:00:00.000Z"],
    ["2027-01-04T08:00:00.000Z", "2027-W01", "2027-01-04T08:00:00.000Z"],
    ["2024-12-30T08:00:00.000Z", "2025-W01", "2024-12-30T08:00:00.000Z"],
    ["2021-01-03T12:00:00.000Z", "2020-W53", "2020-12-28T08:00:00.000Z"],
  ])("at %s: %s, due %s", (now, week, at) => {
    const due = dueDigest(new Date(now));
    expect([due.week, due.at.toISOString(), due.from.getTime()]).toEqual([week, at, Date.parse(at) - 7 * 86_400_000]);
  });
});
