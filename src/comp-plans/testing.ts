// What the tests of comp-plans/ reach beyond its index.ts (never imported by src/).
export { getAssignment } from "./list-assignments.js";
export { AssignmentWritten, CompPlanWritten, PlanVersion } from "./schema.js";
