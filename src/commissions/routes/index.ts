export { adjustmentRoutes } from "./adjustments.js";
export { commissionRoutes } from "./commissions.js";
