// The dependency rules of src/ (ARCHITECTURE.md "Floors"), checked by `npm run lint`:
// a file imports only from its own floor or below; outside a feature folder, only its index.ts;
// the commission engine imports nothing but itself; no import cycles.

/** From the ground up. Folders end in "/", single files in ".ts". */
const FLOORS = [
  ["config.ts", "enums.ts", "errors.ts", "event-loop.ts", "ids.ts", "metrics.ts", "http/", "passwords/"],
  ["db/"],
  ["context.ts", "declare-routes.ts", "events/", "jobs/", "rate-limit/", "idempotency/", "access/"],
  ["audit/", "request-logs/"],
  ["api-keys/", "sessions/", "users/", "webhooks/"],
  ["commissions/"],
  ["comp-plans/", "spiffs/", "disputes/"],
  ["deals/"],
  ["mcp/", "demo/", "auth/"],
  ["app/", "owner/", "cli/", "deployment.ts", "main.ts"],
];

/** Folders whose index.ts is the only module other folders may import. */
const FEATURES = [
  "passwords",
  "access",
  "api-keys",
  "sessions",
  "users",
  "webhooks",
  "commissions",
  "comp-plans",
  "spiffs",
  "disputes",
  "deals",
  "demo",
  "auth",
];

const escapeDots = (s) => s.replace(/[.]/g, "\\.");
const pathsOf = (entries) => `^src/(${entries.map(escapeDots).join("|")})`;
const floorOf = (n) => `floor ${n + 1} (${FLOORS[n].join(", ")})`;

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
      from: { path: "^src/([^/]+)" },
      to: {
        path: `^src/(${FEATURES.join("|")})/`,
        pathNot: ["^src/$1/", `^src/(${FEATURES.join("|")})/index\\.ts$`],
      },
    },
    {
      name: "index-exports-repository",
      comment:
        "A feature's index.ts re-exports services, schemas and routes, never its repository (SQL and row types).",
      severity: "error",
      from: { path: "^src/[^/]+/index\\.ts$" },
      to: { path: "repository\\.ts$" },
    },
    {
      name: "engine-imports-outside",
      comment: "The commission engine (commissions/calculate*) is pure: it imports nothing of src/ but itself.",
      severity: "error",
      from: { path: "^src/commissions/calculate(\\.ts$|/)" },
      to: { path: "^src/", pathNot: "^src/commissions/calculate(\\.ts$|/)" },
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
    includeOnly: "^src/",
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
