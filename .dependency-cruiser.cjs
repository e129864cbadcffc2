// The dependency rules of src/ (ARCHITECTURE.md "Floors"), checked by `npm run lint`:
// a file imports only from its own floor or below; outside a feature folder, only its index.ts; only
// repositories (and db/) run SQL, and no index.ts re-exports one; the commission engine imports nothing
// but itself and the money module; commissions' sub-surfaces meet through their index.ts; no cycles.
// CTS_SRC_ROOT points the same rules at test/lint/fixtures/src-deps (the test that breaks each one).
const { MAY_RUN_SQL, NOT_YET_REPOSITORIES } = require("./scripts/sql-files.cjs");

const ROOT = (process.env.CTS_SRC_ROOT ?? "src").replace(/[.]/g, "\\.");

/** From the ground up. Folders end in "/", single files in ".ts". */
const FLOORS = [
  [
    "config.ts",
    "enums.ts",
    "errors.ts",
    "event-loop.ts",
    "ids.ts",
    "metrics.ts",
    "request-metrics.ts",
    "http/",
    "money/",
    "passwords/",
  ],
  ["db/"],
  ["context.ts", "declare-routes.ts", "events/", "jobs/", "rate-limit/", "idempotency/", "access/"],
  ["audit/", "request-logs/"],
  ["api-keys/", "sessions/", "users/", "webhooks/", "exchange-rates/", "notifications/"],
  ["commissions/"],
  ["comp-plans/", "spiffs/", "disputes/", "draws/", "accounting/", "plan-acknowledgements/"],
  ["deals/", "payout-runs/"],
  ["mcp/", "demo/", "auth/", "imports/"],
  ["app/", "owner/", "cli/", "deployment.ts", "main.ts"],
];

/** Folders whose index.ts is the only module other folders may import. */
const FEATURES = [
  "money",
  "passwords",
  "access",
  "api-keys",
  "sessions",
  "users",
  "webhooks",
  "notifications",
  "exchange-rates",
  "commissions",
  "comp-plans",
  "spiffs",
  "disputes",
  "draws",
  "accounting",
  "plan-acknowledgements",
  "deals",
  "payout-runs",
  "demo",
  "auth",
  "imports",
];

/** commissions/ inside: each sub-surface is its index.ts to the others and to the feature's root files. */
const COMMISSION_SURFACES = ["engine", "recalc", "lines", "impact"];

const escapeDots = (s) => s.replace(/[.]/g, "\\.");
const pathsOf = (entries) => `^${ROOT}/(${entries.map(escapeDots).join("|")})`;
const floorOf = (n) => `floor ${n + 1} (${FLOORS[n].join(", ")})`;
/** A pattern relative to the source root ("^db/", "repository\\.ts$") as one over the whole path. */
const inRoot = (pattern) => (pattern.startsWith("^") ? `^${ROOT}/${pattern.slice(1)}` : pattern);
const SURFACES = `^${ROOT}/commissions/(${COMMISSION_SURFACES.join("|")})/`;

const floorRules = FLOORS.slice(0, -1).map((entries, n) => ({
  name: `floor-${n + 1}-imports-upward`,
  comment: `${floorOf(n)} may import only its own floor or below; move the shared piece down instead.`,
  severity: "error",
  from: { path: pathsOf(entries) },
  to: { path: pathsOf(FLOORS.slice(n + 1).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: "feature-internal-import",
      comment:
        "Outside a feature folder, import only the feature's index.ts (its public surface); " +
        "export what is needed from there (never a repository).",
      severity: "error",
      from: { path: `^${ROOT}/([^/]+)` },
      to: {
        path: `^${ROOT}/(${FEATURES.join("|")})/`,
        pathNot: [`^${ROOT}/$1/`, `^${ROOT}/(${FEATURES.join("|")})/index\\.ts$`],
      },
    },
    {
      name: "sql-outside-repository",
      comment:
        "A file that runs SQL (a value import of kysely, or of db/sql.ts's query helpers) is a repository: " +
        "name it <area>-repository.ts, or move its SQL into the feature's repository and call that.",
      severity: "error",
      from: {
        path: `^${ROOT}/`,
        pathNot: [...MAY_RUN_SQL, ...NOT_YET_REPOSITORIES.map((f) => `^${escapeDots(f)}$`)].map(inRoot),
      },
      to: { path: ["^node_modules/kysely/", `^${ROOT}/db/sql\\.ts$`], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "index-exports-repository",
      comment:
        "An index.ts (a feature's, or a sub-surface's) re-exports services, schemas and routes, never a " +
        "repository (SQL and row types): put a service in between.",
      severity: "error",
      from: { path: `^${ROOT}/.+/index\\.ts$` },
      to: { path: "repository\\.ts$" },
    },
    {
      name: "reexports-repository",
      comment:
        "Only a testing.ts surface re-exports from a repository; a service that hands out a repository's " +
        "function (`export { x } from './repository.js'`) makes it public under another name.",
      severity: "error",
      from: { path: `^${ROOT}/`, pathNot: "/testing\\.ts$" },
      to: { path: "repository\\.ts$", dependencyTypes: ["export"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "engine-imports-outside",
      comment:
        "The commission engine (commissions/engine/) is pure: it imports nothing of src/ but itself and the " +
        "money module (no database, no clock, no I/O).",
      severity: "error",
      from: { path: `^${ROOT}/commissions/engine/` },
      to: { path: `^${ROOT}/`, pathNot: [`^${ROOT}/commissions/engine/`, `^${ROOT}/money/`] },
    },
    {
      name: "commissions-surface-internal-import",
      comment:
        "Outside a commissions sub-surface (engine/, recalc/, lines/, impact/), import only its index.ts; " +
        "tests reach the rest through commissions/testing.ts.",
      severity: "error",
      from: { path: `^${ROOT}/commissions/([^/]+)`, pathNot: "/testing\\.ts$" },
      to: { path: SURFACES, pathNot: [`^${ROOT}/commissions/$1/`, `${SURFACES}index\\.ts$`] },
    },
    {
      name: "testing-surface-in-src",
      comment: "A testing.ts surface is for tests: src/ never imports one.",
      severity: "error",
      from: { path: `^${ROOT}/`, pathNot: "/testing\\.ts$" },
      to: { path: "/testing\\.ts$" },
    },
    {
      name: "no-circular",
      comment: "Import cycles make load order matter; break the cycle by moving the shared piece down a floor.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that does not resolve is a typo or a missing dependency.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Packages are listed (a value import of kysely is SQL) but never cruised into.
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".d.ts"],
    },
  },
};
