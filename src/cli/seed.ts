import type { Command } from "commander";
import { loadConfig } from "../config.js";
import type { SeedResult } from "../demo/index.js";
import { runOwner } from "./owner.js";
import { withProgress } from "./progress.js";

/** The counts, then who is in the demo and how to sign in as them. */
function describe(result: SeedResult): string {
  const { people, ...counts } = result;
  const width = Math.max(...people.map((p) => p.name.length));
  const rows = people.map(
    (p) => `  ${p.name.padEnd(width)}  ${p.role.padEnd(8)} ${p.email}${p.plan ? `  (${p.plan})` : ""}`,
  );
  return [
    `Demo data ready: ${JSON.stringify(counts)}`,
    "Sign in as any of them with the one-time link `cts users invite EMAIL` prints:",
    ...rows,
  ].join("\n");
}

export function seedCommand(program: Command): void {
  program
    .command("seed")
    .description("Load a realistic demo data set (idempotent; refused with CTS_ENV=live)")
    .requiredOption(
      "--demo",
      "the demo data set: 6 reps on monthly, quarterly and yearly plans, their manager, finance and an admin, a SPIFF, ~190 deals over their last periods",
    )
    .option("--json", "print the counts as JSON")
    .action(async (o: { json?: boolean }) => {
      if (loadConfig().env === "live") throw new Error("seed --demo is refused with CTS_ENV=live");
      const result = await withProgress("Seeding demo data (9 people, 3 plans, a SPIFF, ~190 deals)", () =>
        runOwner("seed.demo", {}, 600_000),
      );
      process.stdout.write(`${o.json ? JSON.stringify(result) : describe(result as SeedResult)}\n`);
    });
}
