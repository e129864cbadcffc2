// The kinds of background job this server runs: the one table they are spelled in. The handler registry
// (app/work-sources.ts, one handler per kind), the services that queue them, GET /jobs's description and
// the SQL that names a kind take their kind from here (typed JobKind, so a misspelling does not compile).
// Migration 004's partial index names 'retention' too: migrations are history and stay as written.
export const JOB_KINDS = ["recalculate", "plan_impact", "retention"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
