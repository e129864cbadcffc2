import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer } from "../../src/notifications/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
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

interface Ack {
  id: string;
  plan_id: string;
  plan_version: number;
  status: string;
}

const to = (email: string) => smtp.received.filter((m) => m.to.includes(email.toLowerCase()));

async function requestsOf(app: TestApp, userId: string): Promise<Ack[]> {
  const res = await new Api(app).get(`/plan-acknowledgements?user_id=${userId}`);
  return ok<{ data: Ack[] }>(res).data;
}

async function deliveriesOf(app: TestApp, userId: string) {
  const { rows } = await sql<{ kind: string; status: string; to_address: string }>`
    SELECT kind, status, to_address FROM notification_deliveries WHERE user_id = ${userId}
    ORDER BY created_at, id`.execute(app.db.db);
  return rows;
}

describe("the email asking for a plan acknowledgement, through a real SMTP server", () => {
  it("assigning a plan emails the person once, with the link to read and acknowledge it on CTS_PUBLIC_URL", async () => {
    const rep = await createUser(t, { role: "rep", name: "Ada Reader" });
    const plan = await createPlan(api, { name: "Reader plan" });
    await assign(api, plan.id, rep.id);
    const [request] = await requestsOf(t, rep.id);
    expect(request).toMatchObject({ plan_id: plan.id, plan_version: 1, status: "pending" });
    await deliverAll(t, mailer);
    await deliverAll(t, mailer); // a second pass finds nothing left: never twice
    const got = to(rep.email);
    expect(got).toHaveLength(1);
    expect(got[0]!.to).toEqual([rep.email.toLowerCase()]);
    expect(got[0]!.subject).toBe("Please read and acknowledge your plan: Reader plan");
    expect(got[0]!.text).toContain("Hello Ada Reader,");
    expect(got[0]!.text).toContain('You are on the commission plan "Reader plan" (version 1).');
    expect(got[0]!.text).toContain(`Read and acknowledge your plan: ${ORIGIN}/acknowledgements/${request!.id}`);
    expect(got[0]!.html).toContain(`href="${ORIGIN}/acknowledgements/${request!.id}"`);
    expect(await deliveriesOf(t, rep.id)).toEqual([
      { kind: "plan_acknowledgement", status: "sent", to_address: rep.email },
    ]);
  });

  it("a new version emails everyone assigned again, each with the new request's link", async () => {
    const plan = await createPlan(api, { name: "Changing plan" });
    const first = await createUser(t, { role: "rep" });
    const second = await createUser(t, { role: "manager" });
    await assign(api, plan.id, first.id);
    await assign(api, plan.id, second.id);
    await deliverAll(t, mailer);
    const changed = await api.patch(`/comp-plans/${plan.id}`, { quota: 120000 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().version).toBe(2);
    // A name change keeps the version: nobody is asked again.
    expect((await api.patch(`/comp-plans/${plan.id}`, { name: "Changing plan!" })).statusCode).toBe(200);
    await deliverAll(t, mailer);
    for (const person of [first, second]) {
      const requests = await requestsOf(t, person.id);
      expect(requests.map((r) => r.plan_version)).toEqual([2, 1]);
      const got = to(person.email);
      expect(got.map((m) => m.subject)).toEqual([
        "Please read and acknowledge your plan: Changing plan",
        "Please read and acknowledge your plan: Changing plan",
      ]);
      expect(got[1]!.text).toContain("(version 2)");
      expect(got[1]!.text).toContain(`${ORIGIN}/acknowledgements/${requests[0]!.id}`);
      expect(got[0]!.text).toContain(`${ORIGIN}/acknowledgements/${requests[1]!.id}`);
    }
  });

  it("a person who turned plan_acknowledgement off gets none; the request is still there to acknowledge", async () => {
    const session = await signedInAs(t, { role: "rep" });
    await switchKind(t, session, "plan_acknowledgement", false);
    const plan = await createPlan(api, { name: "Quiet plan" });
    await assign(api, plan.id, session.user.id);
    expect((await api.patch(`/comp-plans/${plan.id}`, { quota: 90000 })).statusCode).toBe(200);
    await deliverAll(t, mailer);
    expect(to(session.user.email)).toEqual([]);
    expect(await deliveriesOf(t, session.user.id)).toEqual([]);
    expect((await requestsOf(t, session.user.id)).map((r) => [r.plan_version, r.status])).toEqual([
      [2, "pending"],
      [1, "pending"],
    ]);
  });

  it("an inactive person gets none", async () => {
    const rep = await createUser(t, { role: "rep" });
    const plan = await createPlan(api, { name: "Gone plan" });
    await assign(api, plan.id, rep.id);
    await deliverAll(t, mailer);
    expect(ok(await api.patch(`/users/${rep.id}`, { active: false }))).toMatchObject({ active: false });
    expect((await api.patch(`/comp-plans/${plan.id}`, { quota: 80000 })).statusCode).toBe(200);
    await deliverAll(t, mailer);
    expect(to(rep.email).map((m) => m.text.includes("(version 2)"))).toEqual([false]);
  });
});

describe("without email configured", () => {
  it("an assignment still asks in the console, and queues no message", async () => {
    const quiet = await createTestApp();
    try {
      const quietApi = new Api(quiet);
      const rep = await createUser(quiet, { role: "rep" });
      const plan = await createPlan(quietApi, { name: "No mail plan" });
      await assign(quietApi, plan.id, rep.id);
      expect((await requestsOf(quiet, rep.id)).map((r) => r.status)).toEqual(["pending"]);
      expect(await deliveriesOf(quiet, rep.id)).toEqual([]);
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM notification_deliveries`.execute(quiet.db.db);
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await quiet.close();
    }
  });
});
