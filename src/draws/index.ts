// Draws as other folders see them (API.md §18): their routes, services, schemas and period arithmetic.
export { createDraw } from "./create.js";
export { endDraw } from "./end.js";
export { forgiveDraw } from "./forgive.js";
export { listDraws } from "./list.js";
export { earningLabels, periodOf, periodsBetween } from "./periods.js";
export { getDraw } from "./read.js";
export { drawRoutes } from "./routes.js";
export { CreateDrawBody, Draw, EndDrawBody, ForgiveDrawBody, ListDrawsQuery } from "./schema.js";
