// The exchange-rates feature as other folders see it: its routes, services, schemas, the rate lookup
// (API.md §15 "Conversion") and the port a rate change recalculates through.

export { deleteExchangeRates } from "./delete.js";
export { listExchangeRates } from "./list.js";
export { loadRateBook } from "./load-rate-book.js";
export { type FxQuery, type FxRate, MAX_FX_AGE_DAYS, RateBook, type RateSet } from "./lookup.js";
export { putExchangeRates } from "./put.js";
export { type Fraction, fraction, fractionOf, fractionText } from "./rate-text.js";
export { getExchangeRates } from "./read.js";
export { type RatesChange, type RatesChangeHandler, setRatesChangeHandler } from "./recalc-port.js";
export { exchangeRateRoutes } from "./routes.js";
export {
  ExchangeRateSet,
  ExchangeRateSetWritten,
  FxMaxAgeDays,
  ListRatesQuery,
  PutRatesArguments,
  PutRatesBody,
} from "./schema.js";
