import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobsSource } from "../../src/jobs/jobs-source.js";
import { enqueueJob, findJob, type Job } from "../../src/jobs/queue.js";
import type { JobListItem } from "../../src/jobs/schema.js";
import { createApiKey, errorOf, freshIp, unique } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

let t: TestApp;
let clock: TestClock;
let admin: string;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  admin = (await createApiKey(t, "admin")).key;
});

afterAll(async () => {
  await t?.close();
});

interface JobPage {
  data: JobListItem[];
  meta: { page: number; per_page: number; total: number };
}

async function list(query: string, headers = bearer(admin)) {
  const res = await t.app.inject({ method: "GET", url: `/api/v1/jobs?${query}`, headers, remoteAddress: freshIp() });
  return { res, body: res.json() as JobPage };
}

/** A job of `kind` queued now; the clock then moves a second, so creation order is time order. */
async function queued(kind: string, total?: number): Promise<Job> {
  const job = await t.db.db
    .transaction()
    .execute((tx) => enqueueJob(tx, clock.now(), { kind, payload: {}, ...(total ? { total } : {}) }));
  clock.advance(1_000);
  return job;
}

const logger = pino({ level: "silent" });

/** The worker's own claim and run, so each job reaches its status the way the worker takes it there. */
function source(kind: string, handler: () => Promise<void>) {
  return jobsSource({ db: t.db.db, handlers: { [kind]: handler }, logger, clock: clock.now });
}

/** The list item of a stored job: every field but `result`, as GET /jobs/{id} gives them. */
async function listed(id: string): Promise<JobListItem> {
  const { result: _result, ...item } = (await findJob(t.db.db, id))!;
  return item;
}

describe("GET /jobs", () => {
  it("lists every job newest first with its progress, without result, and pages with a Link header", async () => {
    const kind = unique("batch");
    const jobs = [await queued(kind, 10), await queued(kind), await queued(kind, 3)];
    const newestFirst = [...jobs].reverse();

    const first = await list(`kind=${kind}&per_page=2`);
    expect(first.res.statusCode, first.res.body).toBe(200);
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 3 });
    expect(first.body.data).toEqual(await Promise.all(newestFirst.slice(0, 2).map((j) => listed(j.id))));
    expect(first.body.data[0]).toEqual({
      id: jobs[2]!.id,
      kind,
      status: "queued",
      total: 3,
      done: 0,
      error: null,
      created_at: jobs[2]!.created_at,
      finished_at: null,
    });
    expect(first.res.headers.link).toContain('rel="next"');
    expect(first.res.headers.link).toContain(`kind=${kind}`);

    const second = await list(`kind=${kind}&per_page=2&page=2`);
    expect(second.body.meta).toEqual({ page: 2, per_page: 2, total: 3 });
    expect(second.body.data.map((j) => j.id)).toEqual([jobs[0]!.id]);
    expect(second.res.headers.link).toContain('rel="prev"');
    expect(second.res.headers.link).not.toContain('rel="next"');

    const beyond = await list(`kind=${kind}&per_page=2&page=3`);
    expect(beyond.body).toEqual({ data: [], meta: { page: 3, per_page: 2, total: 3 } });
  });

  it("orders jobs created in the same millisecond by id, descending", async () => {
    const kind = unique("burst");
    const now = clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await t.db.db.transaction().execute((tx) => enqueueJob(tx, now, { kind, payload: {} }))).id);
    }
    clock.advance(1_000);
    const { body } = await list(`kind=${kind}`);
    expect(body.data.map((j) => j.id)).toEqual([...ids].sort().reverse());
  });

  it("filters by status and kind, alone and together", async () => {
    const kind = unique("filtered");
    const other = unique("other");
    const succeed = source(kind, async () => {});
    const fail = source(kind, async () => {
      throw new Error("the ledger said no");
    });
    /** Claims the one due job of `kind` (it must be `expected`) and runs it with `worker`'s handler. */
    const claimOne = async (worker: typeof succeed, expected: Job) => {
      const claimed = await worker.claim("w1", 1, clock.now());
      expect(claimed.map((j) => j.id)).toEqual([expected.id]);
      return claimed[0]!;
    };

    const early = await queued(kind);
    await succeed.run(await claimOne(succeed, early), "w1");
    const broken = await queued(kind);
    for (let attempt = 0; attempt < 3; attempt++) {
      await fail.run(await claimOne(fail, broken), "w1");
      clock.advance(10_000); // past the retry delay
    }
    const done = await queued(kind);
    await succeed.run(await claimOne(succeed, done), "w1");
    const running = await queued(kind, 5);
    await claimOne(succeed, running); // claimed, never finished: in progress
    const waiting = await queued(kind);
    const elsewhere = await queued(other);

    const ids = async (query: string) => (await list(query)).body.data.map((j) => j.id);
    expect(await ids(`kind=${kind}`)).toEqual([waiting.id, running.id, done.id, broken.id, early.id]);
    expect(await ids(`kind=${kind}&status=running`)).toEqual([running.id]);
    expect(await ids(`kind=${kind}&status=succeeded`)).toEqual([done.id, early.id]);
    expect(await ids(`kind=${kind}&status=queued`)).toEqual([waiting.id]);
    expect(await ids(`kind=${other}`)).toEqual([elsewhere.id]);
    expect(await ids(`kind=${other}&status=running`)).toEqual([]);
    const failed = (await list(`kind=${kind}&status=failed`)).body;
    expect(failed.meta.total).toBe(1);
    expect(failed.data[0]).toEqual(await listed(broken.id));
    expect(failed.data[0]).toMatchObject({ status: "failed", error: "the ledger said no" });
    expect(failed.data[0]!.finished_at).not.toBeNull();
    const inProgress = (await list(`kind=${kind}&status=running`)).body.data[0]!;
    expect(inProgress).toMatchObject({ status: "running", total: 5, done: 0, finished_at: null });
    const everyRunning = (await list("status=running&per_page=100")).body.data;
    expect(everyRunning.every((j) => j.status === "running")).toBe(true);
    expect(everyRunning.map((j) => j.id)).toContain(running.id);
  });

  it.each([
    ["status=paused", "status"],
    ["kind=", "kind"],
    ["per_page=101", "per_page"],
    ["page=0", "page"],
    ["result=true", "result"],
  ])("%s → 422 naming %s", async (query, param) => {
    const { res } = await list(query);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).code).toBe("validation_error");
    expect(errorOf(res).details?.map((d) => d.param)).toEqual([param]);
  });
});

describe("GET /jobs: who may call it", () => {
  it("no key or session → 401", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/jobs", remoteAddress: freshIp() });
    expect([res.statusCode, errorOf(res).code]).toEqual([401, "unauthorized"]);
  });

  it.each(["read", "write"] as const)("a %s key → 403 naming the admin scope, before validation", async (scope) => {
    const { key } = await createApiKey(t, scope);
    const { res } = await list("status=paused", bearer(key));
    expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
    expect(errorOf(res).message).toContain("needs the admin scope");
  });

  it.each(["rep", "manager", "finance"] as const)("a signed-in %s → 403 naming the admin role", async (role) => {
    const session = await signedInAs(t, { role });
    const { res } = await list("", session.headers());
    expect([res.statusCode, errorOf(res).code]).toEqual([403, "forbidden"]);
    expect(errorOf(res).message).toContain("admin");
  });

  it("a signed-in admin lists the same page as an admin key", async () => {
    const kind = unique("session");
    const job = await queued(kind);
    const session = await signedInAs(t, { role: "admin" });
    const viaSession = await list(`kind=${kind}`, session.headers());
    expect(viaSession.res.statusCode).toBe(200);
    expect(viaSession.body).toEqual((await list(`kind=${kind}`)).body);
    expect(viaSession.body.data.map((j) => j.id)).toEqual([job.id]);
  });

  it("an unknown job id is still 404 on GET /jobs/{id}; an unknown kind is an empty list, not 404", async () => {
    const missing = await t.app.inject({
      method: "GET",
      url: "/api/v1/jobs/job_00000000000000000000000000",
      headers: bearer(admin),
    });
    expect([missing.statusCode, errorOf(missing).code]).toEqual([404, "not_found"]);
    const { res, body } = await list(`kind=${unique("nothing")}`);
    expect(res.statusCode).toBe(200);
    expect(body).toEqual({ data: [], meta: { page: 1, per_page: 25, total: 0 } });
  });
});
