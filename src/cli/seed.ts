import type { Command } from "commander";
import { loadConfig } from "../config.js";
import { runOwner } from "./owner.js";
import { withProgress } from "./progress.js";

export function seedCommand(program: Command): void {
  program
    .command("seed")
    .description("Load a realistic demo data set (idempotent; refused with CTS_ENV=live)")
    .requiredOption("--demo", "the demo data set: ~20 reps, 3 tiered plans, a SPIFF, ~500 deals over two quarters")
    .option("--json", "print the counts as JSON")
    .action(async (o: { json?: boolean }) => {
      if (loadConfig().env === "live") throw new Error("seed --demo is refused with CTS_ENV=live");
      const result = await withProgress("Seeding demo data (20 reps, 3 plans, a SPIFF, 500 deals)", () =>
        runOwner("seed.demo", {}, 600_000),
      );
      process.stdout.write(`${o.json ? JSON.stringify(result) : `Demo data ready: ${JSON.stringify(result)}`}\n`);
    });
}
