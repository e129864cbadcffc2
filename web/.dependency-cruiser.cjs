// The dependency rules of the console (ARCHITECTURE.md "People and the web console"), checked by
// `npm run lint`: api/ at the bottom, then lib/, data/ (by resource), ui/, pages/ (never one another),
// and the root files (routes.tsx, main.tsx) on top; only data/ calls the API client; no cycles.
// CTS_WEB_ROOT points the same rules at test/console/fixtures/web-deps (the test that breaks each one).

const ROOT = (process.env.CTS_WEB_ROOT ?? "web/src").replace(/[.]/g, "\\.");
const at = (path) => `^${ROOT}/${path}`;
/** The files directly in the root: routes.tsx, main.tsx, boot.ts, early-paths.ts. */
const ROOT_FILES = `^${ROOT}/[^/]+$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "web-page-imports-page",
      comment:
        "A page imports data/, ui/ and lib/, never another page: move what two pages share to ui/ (a view) " +
        "or data/ (a query).",
      severity: "error",
      from: { path: at("pages/([^/]+)/") },
      to: { path: at("pages/"), pathNot: at("pages/$1/") },
    },
    {
      name: "web-api-client-outside-data",
      comment:
        "Only data/ calls the API (one query per endpoint, one write hook): a page or view reads through " +
        "data/<resource>/queries.ts and writes through its mutations.ts.",
      severity: "error",
      from: { path: `^${ROOT}/`, pathNot: [at("data/"), at("api/")] },
      to: { path: [at("api/client\\.[jt]s$"), "openapi-fetch"] },
    },
    {
      name: "web-data-resource-imports-another",
      comment:
        "data/<resource>/ stands alone (named after the server's feature): shared pieces are data/keys.ts, " +
        "query.ts, write.ts and refresh.ts; a page combines resources.",
      severity: "error",
      from: { path: at("data/([^/]+)/") },
      to: { path: at("data/[^/]+/"), pathNot: at("data/$1/") },
    },
    {
      name: "web-api-imports-outside",
      comment: "api/ is the wire (the generated schema, the client, its errors): it imports nothing of the console.",
      severity: "error",
      from: { path: at("api/") },
      to: { path: `^${ROOT}/`, pathNot: at("api/") },
    },
    {
      name: "web-lib-imports-upward",
      comment:
        "lib/ (formatting, money, periods, search params) is below data/, ui/ and pages/: it imports api/ types only.",
      severity: "error",
      from: { path: at("lib/") },
      to: { path: [at("(data|ui|pages)/"), ROOT_FILES] },
    },
    {
      name: "web-data-imports-upward",
      comment: "data/ is below ui/ and pages/: a query or write hook knows nothing of the screens that use it.",
      severity: "error",
      from: { path: at("data/") },
      to: { path: [at("(ui|pages)/"), ROOT_FILES] },
    },
    {
      name: "web-ui-imports-pages",
      comment: "ui/ is shared by the pages: it imports data/, lib/ and api/ types, never a page or the route table.",
      severity: "error",
      from: { path: at("ui/") },
      to: { path: [at("pages/"), ROOT_FILES] },
    },
    {
      name: "web-page-imports-root",
      comment:
        "The route table (routes.tsx) and main.tsx sit on top: a page takes what it needs from them as props or context.",
      severity: "error",
      from: { path: at("pages/") },
      to: { path: ROOT_FILES },
    },
    {
      name: "web-no-circular",
      comment: "Import cycles make load order matter; break the cycle by moving the shared piece down a floor.",
      severity: "error",
      from: { path: `^${ROOT}/` },
      to: { circular: true },
    },
    {
      name: "web-not-to-unresolvable",
      comment: "An import that does not resolve is a typo or a missing dependency.",
      severity: "error",
      from: { path: `^${ROOT}/` },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Packages are listed (a page importing openapi-fetch is caught) but never cruised into.
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require("node:path").join(__dirname, "tsconfig.json") },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".d.ts"],
    },
  },
};
