/** What each person sees and may do (API.md §11): the one place services and routes ask. */
export { dealSeen, ofVisibleDeals, ofVisiblePlans, ofVisibleUsers, usersSeenIn, type Visible } from "./conditions.js";
export { type FieldRequirement, requireFields, requires } from "./field-rules.js";
export { requireRouteRole } from "./route-rule.js";
export { MAY } from "./rules.js";
export { type SeenUsers, seenUsers, seesUser, visibleUserIds } from "./visibility.js";
