import type { Schemas } from "../api/types";

// A deal type inside a sentence ("it is a renewal deal"); ui/labels.ts has them as labels.

export const DEAL_TYPE_WORDS = {
  new_business: "a new-business deal",
  expansion: "an expansion deal",
  renewal: "a renewal deal",
  other: "a deal of another type",
} as const satisfies Record<Schemas["Deal"]["deal_type"], string>;
