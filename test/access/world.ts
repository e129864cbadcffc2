import { sql } from "kysely";
import { type Ctx, makeCtx, type Role } from "../../src/context.js";
import type { User } from "../../src/users/index.js";
import { createUser } from "../factories.js";
import { Api, approveAsOwner, assign, createDeal, createPlan } from "../factories-commissions.js";
import type { TestApp } from "../harness.js";

/**
 * A small company for the role tests: boss → manager → lead → repA (so repA is a report's report of
 * manager); boss → otherManager → repB (a peer's report, outside manager's tree); finance and an admin.
 * Deals: repA's (disputed), repB's (disputed), one of repB's that credits repA too, lead's, and repA's
 * approved one.
 */
export async function buildWorld(t: TestApp) {
  const api = new Api(t, "admin");
  const person = (role: Role, manager_id: string | null = null) => createUser(t, { role, manager_id });
  const boss = await person("manager");
  const manager = await person("manager", boss.id);
  const lead = await person("manager", manager.id);
  const repA = await person("rep", lead.id);
  const otherManager = await person("manager", boss.id);
  const repB = await person("rep", otherManager.id);
  const finance = await person("finance");
  const admin = await person("admin");
  const planA = await createPlan(api, { name: "Plan A" });
  const planB = await createPlan(api, { name: "Plan B" });
  const planLead = await createPlan(api, { name: "Plan Lead" });
  const unassigned = await createPlan(api, { name: "Unassigned" });
  const assignA = await assign(api, planA.id, repA.id);
  const assignB = await assign(api, planB.id, repB.id);
  const assignLead = await assign(api, planLead.id, lead.id);
  const dealA = await createDeal(api, repA.id);
  const dealB = await createDeal(api, repB.id);
  const shared = await createDeal(api, repB.id, {
    splits: [
      { user_id: repB.id, percent: 50 },
      { user_id: repA.id, percent: 50 },
    ],
  });
  const dealLead = await createDeal(api, lead.id);
  const approvedA = await createDeal(api, repA.id);
  await approveAsOwner(t, dealA.id, "disputed");
  await approveAsOwner(t, dealB.id, "disputed");
  await approveAsOwner(t, approvedA.id);
  return {
    api,
    users: { boss, manager, repA, lead, otherManager, repB, finance, admin },
    plans: { planA, planB, planLead, unassigned },
    assignments: { assignA, assignB, assignLead },
    deals: { dealA, dealB, shared, dealLead, approvedA },
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;

/** The services' context of a person signed in (what the pipeline builds from a session). */
export function as(t: TestApp, user: User): Ctx {
  const actor = { type: "user" as const, userId: user.id, name: user.name, role: user.role, sessionId: "ses_test" };
  return makeCtx(t.db.db, "test", actor, null, t.clock?.now() ?? new Date());
}

/** Sets manager_id without the API's cycle check: a cycle only a direct table write can make. */
export async function setManager(t: TestApp, userId: string, managerId: string): Promise<void> {
  await sql`UPDATE users SET manager_id = ${managerId} WHERE id = ${userId}`.execute(t.db.db);
}
