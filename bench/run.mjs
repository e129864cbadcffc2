// `npm run bench [name…]`: runs every benchmark in bench/ (or the named ones) one after another,
// each in its own process against the built code (`npm run build` first), each printing its figures,
// its same-run baseline and the ratio. Every .mjs file here but this one is a benchmark (engine and
// cold-start included: engine needs no database, cold-start spawns `dist/cli/main.js serve` itself).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const all = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
  .map((f) => f.replace(/\.mjs$/, ""));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; available: ${all.join(", ")}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(process.execPath, [`${dir}${name}.mjs`], { stdio: "inherit", env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
