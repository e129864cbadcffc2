import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scheduleRetention } from "../../src/app/retention.js";
import { jobsSource } from "../../src/jobs/jobs-source.js";
import { openTestDb, type TestDb } from "../harness.js";

/*
 * A process killed while a retention run is running leaves it `running`; the next start queues a new
 * retention run, and taking back the dead run's lease (queued again) would violate the one-queued-retention
 * index: every later claim failed, so the restarted worker ran no job and delivered no webhook again.
 */
const logger = pino({ level: "silent" });
let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => t.dispose());

async function retentionRows() {
  return t.db
    .selectFrom("jobs")
    .select(["id", "status", "claimed_by", "error"])
    .where("kind", "=", "retention")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

describe("taking back a dead process's retention run", () => {
  it("ends it as failed when the next run is already queued, and the worker claims that one", async () => {
    const now = new Date();
    await scheduleRetention(t.db, now);
    const dead = jobsSource({ db: t.db, handlers: { retention: async () => {} }, logger });
    const [running] = await dead.claim("dead-host:1:aaaaaa", 1, now);
    expect(running?.status).toBe("running");
    await scheduleRetention(t.db, now); // what the restarted process does at start-up

    const restarted = jobsSource({ db: t.db, handlers: { retention: async () => {} }, logger, exclusive: true });
    const claimed = await restarted.claim("new-host:2:bbbbbb", 5, new Date(now.getTime() + 1000));
    const rows = await retentionRows();
    expect(rows.map((r) => [r.id === running!.id ? "dead" : "next", r.status])).toEqual([
      ["dead", "failed"],
      ["next", "running"],
    ]);
    expect(rows[0]!.error).toBe("its process stopped during the run; the retention run already queued does its work");
    expect(claimed.map((j) => j.id)).toEqual([rows[1]!.id]);
  });
});
