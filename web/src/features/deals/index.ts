// The deal feature's public surface: what other features use of it (the approval queue's drawer).
export { DealLines } from "./components/DealLines";
export { dealKeys, dealQuery, peopleQuery } from "./queries";
