// Reps whose plans do not run by quarter, and one under a cap, for the specs of where the Statement link
// lands, the period picker, home's other periods and the cap message (statement-periods.spec.ts,
// home-periods.spec.ts). Outside the seeded manager tree, so no seeded manager's page changes. Every
// deal closes on the first day of a period, so none lies in the future whatever today is. Written with
// an admin key of its own: the suite's key keeps its 100 requests a minute for the specs that follow.
import { call, type SeededUser } from "./api.js";

type Admin = <T = any>(method: string, path: string, body?: unknown) => Promise<T>;

const pad = (n: number) => String(n).padStart(2, "0");

/** The first day of the month `back` months before today's (UTC), "YYYY-MM-01". */
function monthStart(back: number): string {
  const now = new Date();
  const index = now.getUTCFullYear() * 12 + now.getUTCMonth() - back;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}-01`;
}

/** The first day of this quarter (UTC). */
function quarterStart(): string {
  const now = new Date();
  return `${now.getUTCFullYear()}-${pad(Math.floor(now.getUTCMonth() / 3) * 3 + 1)}-01`;
}

export async function seedPlanPeriods(url: string, suiteAdmin: Admin, password: string) {
  const { key } = await suiteAdmin<{ key: string }>("POST", "/api-keys", {
    name: "e2e seed: plan periods",
    scope: "admin",
  });
  const admin: Admin = (method, path, body) => call(url, method, path, { Authorization: `Bearer ${key}` }, body);
  const person = async (name: string, role: string, managerId: string | null): Promise<SeededUser> => {
    const email = `${name.split(" ")[0]!.toLowerCase()}@e2e.example.com`;
    const user = await admin("POST", "/users", { name, email, role, manager_id: managerId });
    const invitation = await admin("POST", `/users/${user.id}/invitations`);
    const token = new URL(invitation.url).hash.slice(1);
    await call(url, "POST", "/auth/invitations/accept", { Origin: url }, { token, password });
    return { id: user.id, name, email, role, password };
  };
  const yearly = await person("Yuri Yearly", "rep", null);
  const monthly = await person("Mona Monthly", "rep", null);
  const capped = await person("Cal Capped", "rep", null);
  const year = new Date().getUTCFullYear();

  const plan = async (body: Record<string, unknown>, rep: SeededUser, from: string) => {
    const created = await admin("POST", "/comp-plans", { currency: "USD", effective_from: from, ...body });
    await admin("POST", `/comp-plans/${created.id}/assignments`, { user_id: rep.id, effective_from: from });
  };
  const deal = async (owner: SeededUser, name: string, arr: number, closeDate: string, then: string[] = []) => {
    const created = await admin("POST", "/deals", {
      opportunity_name: name,
      arr_amount: arr,
      close_date: closeDate,
      owner_id: owner.id,
    });
    for (const action of then) await admin("POST", `/deals/${created.id}/${action}`);
  };

  await plan(
    {
      name: "AE yearly",
      period: "year",
      quota: 400000,
      tiers: [
        { from_attainment: 0, rate: 0.06 },
        { from_attainment: 1, rate: 0.1 },
      ],
    },
    yearly,
    `${year - 1}-01-01`,
  );
  await deal(yearly, "Yearly Wayne Enterprises", 120000, `${year}-01-01`, ["approve", "mark-paid"]);
  await deal(yearly, "Yearly Cyberdyne", 80000, `${year}-01-01`);
  await deal(yearly, "Yearly Soylent", 150000, `${year - 1}-01-01`, ["approve"]);
  await deal(yearly, "Yearly Tyrell", 90000, `${year - 1}-01-01`, ["approve", "mark-paid"]);

  await plan({ name: "SDR monthly", period: "month", quota: 10000, base_rate: 0.1 }, monthly, monthStart(3));
  await deal(monthly, "Monthly Oceanic", 6000, monthStart(0), ["approve"]);
  await deal(monthly, "Monthly Initrode", 7000, monthStart(1));
  await deal(monthly, "Monthly Vandelay", 4000, monthStart(1), ["approve"]);
  await deal(monthly, "Monthly Massive Dynamic", 9000, monthStart(2), ["approve", "mark-paid"]);

  // A quarter far past the top band whose lines reach the cap: the last deal earns less than its rate says.
  await plan(
    {
      name: "AE capped quarterly",
      period: "quarter",
      quota: 20000,
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.15 },
        { from_attainment: 1.5, rate: 0.2 },
      ],
      cap_per_period: 5000,
    },
    capped,
    monthStart(12),
  );
  await deal(capped, "Capped Gringotts", 30000, quarterStart(), ["approve"]);
  await deal(capped, "Capped Nakatomi", 25000, quarterStart());
  return { yearly, monthly, capped };
}
