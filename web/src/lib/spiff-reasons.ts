import { DEAL_TYPE_WORDS } from "./deal-types";
import { date, money } from "./format";

// A SPIFF line's "why it pays" (the engine's criteria_met, API.md's SpiffExplanation) as a sentence a
// person reads, not field names: "It pays because the deal closed on Aug 14, 2026, within the SPIFF's
// window (Jul 1, 2026 – Sep 30, 2026), its ARR of $48,000.00 is at least $20,000.00 and it is a
// new-business deal, a type the SPIFF pays on." A condition this does not know is kept as the API wrote it.

const amountOf = (text: string) => text.replace(/,/g, "");

function reason(criterion: string, currency: string, nameOf: (userId: string) => string): string | null {
  if (criterion === "SPIFF active") return null; // every paying SPIFF is active: nothing to say
  const currencyMatch = /^currency (\w+)$/.exec(criterion);
  if (currencyMatch) return `it is a ${currencyMatch[1]} deal`;
  const window = /^close_date (\d{4}-\d{2}-\d{2}) within (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})$/.exec(criterion);
  if (window) {
    return `the deal closed on ${date(window[1]!)}, within the SPIFF's window (${date(window[2]!)} – ${date(window[3]!)})`;
  }
  const arr = /^arr_amount ([\d,.-]+) ≥ ([\d,.-]+)$/.exec(criterion);
  if (arr) {
    return `its ARR of ${money(amountOf(arr[1]!), currency)} is at least ${money(amountOf(arr[2]!), currency)}`;
  }
  const type = /^deal_type (\w+) is listed$/.exec(criterion);
  if (type) {
    const words = DEAL_TYPE_WORDS[type[1] as keyof typeof DEAL_TYPE_WORDS];
    return words ? `it is ${words}, a type the SPIFF pays on` : `its deal type (${type[1]}) is one the SPIFF pays on`;
  }
  const user = /^user (\S+) is listed$/.exec(criterion);
  if (user) return `${nameOf(user[1]!)} is one of the people the SPIFF pays`;
  return criterion;
}

/** "A, B and C". */
function listed(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** The sentence for a SPIFF line's criteria_met; `nameOf` names a credited person by id. */
export function whyItPays(
  criteriaMet: readonly string[],
  currency: string,
  nameOf: (userId: string) => string = (id) => id,
): string {
  const reasons = criteriaMet.map((c) => reason(c, currency, nameOf)).filter((r): r is string => r !== null);
  if (reasons.length === 0) return "It pays on every deal that closes in its window.";
  return `It pays because ${listed(reasons)}.`;
}
