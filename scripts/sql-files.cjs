// Which files of src/ may run SQL (ARCHITECTURE.md: SQL lives in repositories): a repository
// (`repository.ts`, `<area>-repository.ts`) or src/db/. Shared by .dependency-cruiser.cjs (no value
// import of kysely or db/sql.ts elsewhere) and scripts/check-sql.mjs (no query built elsewhere).

/** Paths relative to the source root. */
const MAY_RUN_SQL = ["repository\\.ts$", "^db/", "/testing\\.ts$"];

/**
 * Files that still run SQL outside a repository, each to become `<area>-repository.ts` (or to move its
 * SQL into one) in the feature that owns it. The list only shrinks: a file not named here that builds a
 * query fails `npm run lint`.
 */
const NOT_YET_REPOSITORIES = [
  // Another change is moving its SQL into a repository; then this list is empty.
  "cli/doctor.ts",
];

/** A query built in the text of a file: Kysely's builders or its `sql` template. */
const BUILDS_SQL =
  /\.(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\(|\bsql(<[^>]*>)?`|\bsql\.(raw|ref|lit|id|join|table|val)\(/;

module.exports = { MAY_RUN_SQL, NOT_YET_REPOSITORIES, BUILDS_SQL };
