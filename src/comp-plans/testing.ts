// What the tests of comp-plans/ reach beyond its index.ts (never imported by src/). The rules across
// fields a create or an assignment checks after its schema are here too: the console's forms are
// property-tested against them (test/console/plan-problems.web.test.ts).
export { checkSpan } from "./assignment-span.js";
export { getAssignment } from "./list-assignments.js";
export { AssignmentWritten, CompPlanWritten, PlanVersion } from "./schema.js";
export { checkPlanTerms, normalizeTerms } from "./validate.js";
