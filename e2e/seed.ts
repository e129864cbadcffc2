// What the e2e suite starts from, written through the API with an admin key as any client would:
// a director → lead → two reps tree, a peer rep outside it and a finance user, a quarterly tiered plan, deals over
// this quarter and the three before it in every status, a SPIFF, an adjustment, a yearly, a monthly and a
// capped rep (seed-plan-periods.ts), and a password for each person (set by accepting an invitation).
import { call, type E2eState, type SeededUser } from "./api.js";
import { seedPlanPeriods } from "./seed-plan-periods.js";

export const PASSWORD = "e2e sunflower ledger 2026";

function quarterOf(d: Date): { year: number; q: number } {
  return { year: d.getUTCFullYear(), q: Math.floor(d.getUTCMonth() / 3) + 1 };
}

/** The first day of the quarter `back` quarters before today's, plus `day` days ("YYYY-MM-DD"). */
function dayInQuarter(back: number, day: number): string {
  const { year, q } = quarterOf(new Date());
  const index = year * 4 + (q - 1) - back;
  const start = new Date(Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1 + day));
  return start.toISOString().slice(0, 10);
}

export async function seed(url: string, adminKey: string): Promise<E2eState> {
  const admin = <T = any>(method: string, path: string, body?: unknown) =>
    call<T>(url, method, path, { Authorization: `Bearer ${adminKey}` }, body);

  const person = async (name: string, role: string, managerId: string | null): Promise<SeededUser> => {
    const email = `${name.split(" ")[0]!.toLowerCase()}@e2e.example.com`;
    const user = await admin("POST", "/users", { name, email, role, manager_id: managerId });
    const invitation = await admin("POST", `/users/${user.id}/invitations`);
    const token = new URL(invitation.url).hash.slice(1);
    await call(url, "POST", "/auth/invitations/accept", { Origin: url }, { token, password: PASSWORD });
    return { id: user.id, name, email, role, password: PASSWORD };
  };
  const adminPerson = await person("Ada Admin", "admin", null);
  const director = await person("Dora Director", "manager", null);
  const lead = await person("Leo Lead", "manager", director.id);
  const rita = await person("Rita Rep", "rep", lead.id);
  const ravi = await person("Ravi Rep", "rep", lead.id);
  const paula = await person("Paula Peer", "rep", null);
  const finance = await person("Fiona Finance", "finance", null);

  const yearAgo = dayInQuarter(4, 0);
  const plan = await admin("POST", "/comp-plans", {
    name: "AE quarterly",
    period: "quarter",
    currency: "USD",
    quota: 100000,
    tiers: [
      { from_attainment: 0, rate: 0.08 },
      { from_attainment: 1, rate: 0.12 },
      { from_attainment: 1.5, rate: 0.15 },
    ],
    deal_type_multipliers: { renewal: 0.5 },
    effective_from: yearAgo,
  });
  for (const rep of [rita, ravi, paula, lead]) {
    await admin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: rep.id, effective_from: yearAgo });
  }
  await admin("POST", "/spiffs", {
    name: "Big-deal bonus",
    starts_on: dayInQuarter(0, 0),
    ends_on: dayInQuarter(-1, -1),
    criteria: { min_arr_amount: 40000 },
    payout: { type: "flat", amount: 500 },
  });

  const deal = async (owner: SeededUser, name: string, arr: number, back: number, day: number, extra = {}) =>
    admin("POST", "/deals", {
      opportunity_name: name,
      arr_amount: arr,
      close_date: dayInQuarter(back, day),
      owner_id: owner.id,
      ...extra,
    });
  const approve = (id: string) => admin("POST", `/deals/${id}/approve`);
  const pay = async (id: string) => {
    await approve(id);
    await admin("POST", `/deals/${id}/mark-paid`);
  };

  // This quarter: Rita crosses 100 % (the second band) with her third deal.
  const ritaPaid = await deal(rita, "Acme renewal", 30000, 0, 1, { deal_type: "renewal" });
  await pay(ritaPaid.id);
  const ritaApproved = await deal(rita, "Globex expansion", 55000, 0, 3, { deal_type: "expansion" });
  await approve(ritaApproved.id);
  const ritaPending = await deal(rita, "Initech new logo", 42000.5, 0, 5, {
    splits: [
      { user_id: rita.id, percent: 70 },
      { user_id: ravi.id, percent: 30 },
    ],
  });
  // The three quarters before: paid and approved history.
  for (const back of [1, 2, 3]) {
    const old = await deal(rita, `Q-${back} deal A`, 20000 + back * 15000, back, 10);
    await pay(old.id);
    const other = await deal(rita, `Q-${back} deal B`, 12000, back, 20);
    await approve(other.id);
  }
  const ritaToDispute = await deal(rita, "Stark renewal", 16000, 1, 25);
  await approve(ritaToDispute.id);
  const raviDeal = await deal(ravi, "Hooli pilot", 18000, 0, 2);
  await approve(raviDeal.id);
  const paulaApproved = await deal(paula, "Umbrella suite", 64000, 0, 4);
  await approve(paulaApproved.id);
  await admin("POST", "/commissions/adjustments", {
    deal_id: ritaApproved.id,
    user_id: rita.id,
    amount: 150,
    reason: "Onboarding bonus agreed with finance",
  });

  const planPeriods = await seedPlanPeriods(url, admin, PASSWORD);
  const periodReps = await seedTeamPeriods(admin, person, lead);

  const { year, q } = quarterOf(new Date());
  return {
    url,
    adminKey,
    users: { admin: adminPerson, director, lead, rita, ravi, paula, finance, ...planPeriods },
    planId: plan.id,
    currency: "USD",
    period: `${year}-Q${q}`,
    deals: {
      ritaApproved: ritaApproved.id,
      ritaPending: ritaPending.id,
      ritaPaid: ritaPaid.id,
      paulaApproved: paulaApproved.id,
      ritaToDispute: ritaToDispute.id,
    },
    planPeriods: periodReps,
  };
}

// ---- Plan periods (#28): a yearly and a monthly rep under Leo Lead, and a 60/40 split between them ----
// Each rep has a plan of their own (never the seed's "AE quarterly"): Team shows each in their plan's
// period. Their deals are approved or paid only, so no queue, dispute or pending count of other specs moves.

type Admin = <T = any>(method: string, path: string, body?: unknown) => Promise<T>;
type Person = (name: string, role: string, managerId: string | null) => Promise<SeededUser>;

async function seedTeamPeriods(admin: Admin, person: Person, lead: SeededUser): Promise<E2eState["planPeriods"]> {
  const yearly = await person("Yara Yearly", "rep", lead.id);
  const monthly = await person("Milo Monthly", "rep", lead.id);
  const now = new Date();
  const year = now.getUTCFullYear();
  const month = String(now.getUTCMonth() + 1).padStart(2, "0");
  const lastMonth = new Date(Date.UTC(year, now.getUTCMonth() - 1, 12)).toISOString().slice(0, 10);
  const since = `${year - 1}-01-01`;
  const plan = async (name: string, period: string, quota: number, assignee: SeededUser) => {
    const created = await admin("POST", "/comp-plans", {
      name,
      period,
      currency: "USD",
      quota,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.14 },
      ],
      effective_from: since,
    });
    await admin("POST", `/comp-plans/${created.id}/assignments`, { user_id: assignee.id, effective_from: since });
    return created;
  };
  const yearlyPlan = await plan("AE yearly", "year", 400000, yearly);
  const monthlyPlan = await plan("AE monthly", "month", 30000, monthly);
  const deal = async (owner: SeededUser, name: string, arr: number, close: string, extra = {}) =>
    admin("POST", "/deals", {
      opportunity_name: name,
      arr_amount: arr,
      close_date: close,
      owner_id: owner.id,
      ...extra,
    });
  const approve = (id: string) => admin("POST", `/deals/${id}/approve`);

  // The year's first deal (paid) and this month's: Yara's year holds both, whatever quarter today is in.
  const yearStart = await deal(yearly, "Wayne Enterprises annual", 90000, `${year}-01-02`);
  await approve(yearStart.id);
  await admin("POST", `/deals/${yearStart.id}/mark-paid`);
  // Milo's month before this one (paid): outside his current month.
  const miloEarlier = await deal(monthly, "Soylent refill", 21000, lastMonth);
  await approve(miloEarlier.id);
  await admin("POST", `/deals/${miloEarlier.id}/mark-paid`);
  const miloNow = await deal(monthly, "Tyrell replicant care", 26000.5, `${year}-${month}-01`);
  await approve(miloNow.id);
  // Yara owns it, 60 % hers and 40 % Milo's: each one's line follows their own plan.
  const split = await deal(yearly, "Cyberdyne grid 60/40", 50000, `${year}-${month}-01`, {
    splits: [
      { user_id: yearly.id, percent: 60 },
      { user_id: monthly.id, percent: 40 },
    ],
  });
  await approve(split.id);
  return { yearly, monthly, yearlyPlanId: yearlyPlan.id, monthlyPlanId: monthlyPlan.id, splitDeal: split.id };
}
