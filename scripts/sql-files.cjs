// Which files of src/ may run SQL (ARCHITECTURE.md: SQL lives in repositories): a repository
// (`repository.ts`, `<area>-repository.ts`) or src/db/. Shared by .dependency-cruiser.cjs (no value
// import of kysely or db/sql.ts elsewhere) and scripts/check-sql.mjs (no query built elsewhere).

/** Paths relative to the source root. */
const MAY_RUN_SQL = ["repository\\.ts$", "^db/", "/testing\\.ts$"];

/**
 * Files excused from the rule. Empty since #27 moved the last SQL into repositories, and held empty by
 * test/lint/src-dependencies.test.ts: a file that builds a query outside a repository fails the lint.
 */
const NOT_YET_REPOSITORIES = [];

/** A query built in the text of a file: Kysely's builders or its `sql` template. */
const BUILDS_SQL =
  /\.(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\(|\bsql(<[^>]*>)?`|\bsql\.(raw|ref|lit|id|join|table|val)\(/;

module.exports = { MAY_RUN_SQL, NOT_YET_REPOSITORIES, BUILDS_SQL };
