// The deal feature's public surface: what other features use of it (the approval queue's drawer).

export { commissionLabel } from "./commissionLabel";
export { DealLines } from "./components/DealLines";
export { dealKeys, dealQuery, peopleQuery } from "./queries";
