// The webhooks feature as other folders see it: its routes, the delivery work source and its settings.
// undici and pg stay lazy behind these modules (loaded on the first delivery and LISTEN).
export { deliverySource } from "./delivery-source.js";
export { listenForDeliveries } from "./notify.js";
export { webhookRoutes } from "./routes.js";
export { createSafeAgent } from "./safe-fetch.js";
export { WebhookSubscription, WebhookTestEvent } from "./schema.js";
// The deployment's AES-GCM box, also sealing the OpenID Connect sign-in state (auth/oidc-state.ts).
export { decryptSecret, encryptSecret } from "./secret-box.js";
export { resolveWebhookSettings, type WebhookSettings } from "./settings.js";
