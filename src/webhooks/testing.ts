// What the tests of webhooks/ reach beyond its index.ts (never imported by src/): the policies, the
// schedule, signing and the delivery pieces they check one by one.
export { isLoopback, isPublicUnicast, parseHostLiteral, refusalReason } from "./address-policy.js";
export { type AttemptEntry, recordAttempts } from "./attempts-repository.js";
export { createSubscription } from "./create-subscription.js";
export { claimDeliveries } from "./deliveries-repository.js";
export type { DeliverySourceOptions } from "./delivery-source.js";
export { createSafeConnector, type SafeAgent, SafeFetchError, safePost } from "./safe-fetch.js";
export {
  judge,
  MAX_RETRY_AFTER_MS,
  nextStep,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  SCHEDULED_ATTEMPTS,
  withJitter,
} from "./schedule.js";
export { loadOrCreateDataDirKey } from "./secret-box.js";
export { sendTest } from "./send-test.js";
export { generateWebhookSecret, secretHint, signatureHeaders, signPayload } from "./sign.js";
export { checkAllowHosts, type Lookup, validateTargetUrl } from "./target-policy.js";
