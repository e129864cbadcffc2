import { page, searchSchema } from "../../lib/search";

/** /exchange-rates: the page of rate sets. */
export const exchangeRatesSearch = searchSchema({ page: page() });
