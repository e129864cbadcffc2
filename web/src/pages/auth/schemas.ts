import { oneOf, searchSchema, text } from "../../lib/search";

/** /sign-in: where to go back to after signing in (lib/return-to.ts keeps it on this console), and why. */
export const signInSearch = searchSchema({
  return_to: text(),
  reason: oneOf(["expired", "signed-out"]),
});
