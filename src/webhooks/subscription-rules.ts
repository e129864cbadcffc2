import { AppError } from "../errors.js";
import { encryptSecret } from "./secret-box.js";
import { targetPolicy, type WebhookSettings } from "./settings.js";
import { generateWebhookSecret, secretHint } from "./sign.js";
import { validateTargetUrl } from "./target-policy.js";

// What the subscription writes share: the audit resource, the target URL's rules, a new signing secret.

export const RESOURCE = "webhook_subscription";

/** 422 naming `url` when the target breaks the rules of API.md §6; resolved before any transaction opens. */
export async function checkTarget(settings: WebhookSettings, url: string): Promise<void> {
  const reason = await validateTargetUrl(url, targetPolicy(settings));
  if (reason === null) return;
  const message = reason.replace(/^url /, "");
  throw new AppError("validation_error", `url is not an acceptable webhook target: ${message}`, [
    { param: "url", message },
  ]);
}

export function newSecret(settings: WebhookSettings) {
  const secret = generateWebhookSecret();
  return { secret, encrypted: encryptSecret(settings.secretKey, secret), hint: secretHint(secret) };
}
