// The API's ids as a console address carries them: a prefix naming the kind, then letters and digits
// (`deal_01JB…`, `usr_01JB…`). An address whose id is not one is the page's not-found state, asked of no one.

export const ID_PREFIXES = {
  deal: "deal",
  person: "usr",
  plan: "plan",
  payoutRun: "prun",
  webhookSubscription: "whsub",
  planAcknowledgement: "pack",
} as const;

/** Whether `value` could be an id of the kind `prefix` names: isIdOf("deal", "deal_01JB") is true. */
export function isIdOf(prefix: string, value: string): boolean {
  return value.startsWith(`${prefix}_`) && /^[0-9A-Za-z]{1,100}$/.test(value.slice(prefix.length + 1));
}
