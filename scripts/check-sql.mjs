// Part of `npm run lint`: only repositories build SQL. dependency-cruiser sees a file import kysely or
// db/sql.ts; this sees what it cannot: a query built through a `Db` the file was handed (`db.selectFrom`,
// sql`…`) with no such import, and a service re-exporting a repository's function next to its own import
// of it. Files and rules: scripts/sql-files.cjs.
//   node scripts/check-sql.mjs [root]      root defaults to src; exits 1 when a file breaks a rule
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";

const { MAY_RUN_SQL, NOT_YET_REPOSITORIES, BUILDS_SQL } = createRequire(import.meta.url)("./sql-files.cjs");

const root = process.argv[2] ?? "src";
const allowed = [
  ...MAY_RUN_SQL.map((p) => new RegExp(p)),
  ...NOT_YET_REPOSITORIES.map((f) => new RegExp(`^${f.replace(/[.]/g, "\\.")}$`)),
];
const REEXPORT = /export\s*(\*|\{([^}]*)\})\s*from\s*"([^"]*repository\.js)"/g;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

const problems = [];
for (const path of files(root)) {
  const file = relative(root, path).split("\\").join("/");
  const text = readFileSync(path, "utf8");
  if (!allowed.some((re) => re.test(file)) && BUILDS_SQL.test(text)) {
    problems.push(`${file}: builds SQL outside a repository (name it <area>-repository.ts or move the query into one)`);
  }
  if (/(^|\/)testing\.ts$/.test(file)) continue;
  for (const m of text.matchAll(REEXPORT)) {
    const values =
      m[1] === "*"
        ? ["*"]
        : m[2]
            .split(",")
            .map((n) => n.trim())
            .filter((n) => n && !n.startsWith("type "));
    if (values.length > 0 && !/^export\s+type\b/.test(m[0])) {
      problems.push(`${file}: re-exports ${values.join(", ")} from ${m[3]} (put a service in between)`);
    }
  }
}
for (const line of problems) console.log(line);
if (problems.length > 0) {
  console.error(`${problems.length} SQL rule violation(s): only repositories (and src/db/) run SQL.`);
  process.exit(1);
}
