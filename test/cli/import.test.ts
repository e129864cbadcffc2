import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ctsEnv, fromTemplate, type RunningServer, runCts, startServer } from "./spawn.js";

const POSTGRES = !!process.env.TEST_DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), "cts-import-"));
const env = ctsEnv({ CTS_DATA_DIR: join(root, "data") });
if (!POSTGRES) fromTemplate(join(root, "data"));
const running: RunningServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

const file = (name: string, lines: string[]) => {
  const path = join(root, name);
  writeFileSync(path, `${lines.join("\r\n")}\r\n`);
  return path;
};

const HEADER = "external_id,opportunity_name,arr_amount,currency,close_date,owner_id,split_user_ids,split_percents";
const EXAMPLE = [
  HEADER,
  "SF-001,Acme,50000.00,USD,2026-01-15,ana@example.com,ana@example.com;ben@example.com,60;40",
  "SF-002,Globex,1007.00,EUR,2026-03-10,ben@example.com,,",
  "SF-003,Initech,12.345,USD,2026-03-11,ben@example.com,ana@example.com;ben@example.com,33.3333;66.6666",
];

describe.skipIf(POSTGRES)("cts import", () => {
  it("users then deals through the running server: the dry-run table, a refused import, the import, exit codes", {
    timeout: 300_000,
  }, async () => {
    const server = await startServer(env);
    running.push(server);
    const users = file("users.csv", [
      "name,email,role,manager_id",
      "Ana,ana@example.com,rep,ben@example.com",
      "Ben,ben@example.com,manager,",
    ]);
    expect(runCts(["import", "users", users], env)).toEqual({
      status: 0,
      stdout: "Imported users.csv: 2 created, 0 updated, 0 unchanged.\n",
      stderr: "",
    });

    const deals = file("deals.csv", EXAMPLE);
    const dry = runCts(["import", "deals", deals, "--dry-run"], env);
    expect(dry).toEqual({
      status: 1,
      stdout: [
        "ROW  EXTERNAL_ID  ACTION  PROBLEM",
        "2    SF-001       create",
        "3    SF-002       create",
        "4    SF-003       error   arr_amount: must have at most 2 decimal places for USD",
        "4    SF-003       error   split_percents: must sum to exactly 100 (they sum to 99.9999)",
        "",
        "Dry run of deals.csv: 2 to create, 0 to update, 0 unchanged, 1 with problems. Nothing was written.",
        "",
      ].join("\n"),
      stderr: "cts: 1 row has problems; fix it and run again\n",
    });

    const refused = runCts(["import", "deals", deals], env);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.split("\n").slice(0, 2)).toEqual([
      "row 4 arr_amount: must have at most 2 decimal places for USD",
      "row 4 split_percents: must sum to exactly 100 (they sum to 99.9999)",
    ]);
    expect(refused.stderr).toContain("cts: Nothing was imported: 2 problems in 1 row");

    const fixed = file("fixed.csv", [
      ...EXAMPLE.slice(0, 3),
      "SF-003,Initech,12.34,USD,2026-03-11,ben@example.com,ana@example.com;ben@example.com,33.3333;66.6667",
    ]);
    expect(runCts(["import", "deals", fixed], env)).toEqual({
      status: 0,
      stdout: "Imported fixed.csv: 3 created, 0 updated, 0 unchanged.\n",
      stderr: "",
    });
    const again = runCts(["import", "deals", fixed, "--json"], env);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      errors: [],
      recalculation_job_id: null,
    });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    // No server: the CLI opens the data dir itself, with the same answers.
    const mapped = file("mapped.csv", ["Id,Amount", "SF-002,1100.00"]);
    expect(runCts(["import", "deals", mapped, "--map", "Id:external_id,Amount:arr_amount"], env)).toEqual({
      status: 0,
      stdout: "Imported mapped.csv: 0 created, 1 updated, 0 unchanged.\n",
      stderr: "",
    });
  });

  it("a file that cannot be read is a usage error; one that is not UTF-8 fails like the route", () => {
    expect(runCts(["import", "deals", join(root, "nope.csv")], env)).toEqual({
      status: 2,
      stdout: "",
      stderr: `cts: cannot read ${join(root, "nope.csv")}: ENOENT\n`,
    });
    const latin1 = join(root, "latin1.csv");
    writeFileSync(latin1, Buffer.from("external_id,opportunity_name\r\nx,Caf\xe9\r\n", "latin1"));
    expect(runCts(["import", "deals", latin1], env)).toEqual({
      status: 1,
      stdout: "",
      stderr: "cts: The file is not valid UTF-8 text: save it as CSV UTF-8 (Excel: CSV UTF-8)\n",
    });
  });
});
