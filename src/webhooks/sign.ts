import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** `whsec_` + base64 of 32 random bytes, the Standard Webhooks secret format. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** The key bytes of a `whsec_…` secret; receivers' libraries key the HMAC with these, not the text. */
function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new TypeError("a webhook secret must start with whsec_");
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  if (key.length === 0) throw new TypeError("a webhook secret must carry base64 key bytes after whsec_");
  return key;
}

export interface SignInput {
  /** The event id: `webhook-id`, the same on every retry. */
  id: string;
  /** Unix seconds of this attempt: `webhook-timestamp`. */
  timestamp: number;
  body: string;
  /** Every secret that signs now: the current one, plus the previous one during rotation. */
  secrets: readonly string[];
}

/** The `webhook-signature` value: `v1,<base64 HMAC-SHA256>` per secret, space-separated. */
export function signPayload({ id, timestamp, body, secrets }: SignInput): string {
  if (secrets.length === 0) throw new TypeError("at least one webhook secret is needed to sign");
  const content = `${id}.${timestamp}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac("sha256", secretKey(secret)).update(content, "utf8").digest("base64")}`)
    .join(" ");
}

/** The three Standard Webhooks headers for one delivery attempt. */
export function signatureHeaders(input: SignInput): Record<string, string> {
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": signPayload(input),
  };
}

/** What GET shows instead of the secret: the prefix and the last 4 characters. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}
