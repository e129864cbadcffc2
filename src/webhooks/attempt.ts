import { performance } from "node:perf_hooks";
import { deliveryAttempts } from "../metrics.js";
import type { ClaimedDelivery } from "./deliveries-repository.js";
import { type SafeAgent, SafeFetchError, safePost } from "./safe-fetch.js";
import { decryptSecret } from "./secret-box.js";
import { signatureHeaders } from "./sign.js";

export interface AttemptResult {
  status: number | null;
  retryAfter: string | undefined;
  durationMs: number;
  error: string | null;
  body: string | null;
}

/** The delivered body, API.md §6: the same bytes on every attempt of an event. */
function eventBody(delivery: Pick<ClaimedDelivery, "event_id" | "event_type" | "event_created_at" | "event_data">) {
  return JSON.stringify({
    id: delivery.event_id,
    type: delivery.event_type,
    created_at: delivery.event_created_at.toISOString(),
    data: delivery.event_data,
  });
}

/** The current secret, plus the previous one while its rotation grace lasts. */
function signingSecrets(delivery: ClaimedDelivery, key: Buffer, now: Date): string[] {
  const secrets = [decryptSecret(key, delivery.secret_encrypted)];
  const previous = delivery.previous_secret_encrypted;
  const until = delivery.previous_secret_expires_at;
  if (previous !== null && until !== null && until.getTime() > now.getTime())
    secrets.push(decryptSecret(key, previous));
  return secrets;
}

// PostgreSQL text cannot hold NUL; a receiver's binary answer must not make the attempt unrecordable.
function storable(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD");
}

/** One signed POST; never throws: no response, a refusal or a timeout is a failed attempt with an error. */
export async function attemptDelivery(
  agent: SafeAgent,
  delivery: ClaimedDelivery,
  options: { key: Buffer; now: Date; timeoutMs?: number },
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const body = eventBody(delivery);
    const headers = {
      "content-type": "application/json",
      "user-agent": "cts-webhooks/1",
      ...signatureHeaders({
        id: delivery.event_id,
        timestamp: Math.floor(options.now.getTime() / 1000),
        body,
        secrets: signingSecrets(delivery, options.key, options.now),
      }),
    };
    const response = await safePost(agent, delivery.url, {
      headers,
      body,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    const redirect = response.status >= 300 && response.status < 400;
    deliveryAttempts.inc({ result: response.status >= 200 && response.status < 300 ? "succeeded" : "failed" });
    return {
      status: response.status,
      retryAfter: response.headers["retry-after"],
      durationMs: response.durationMs,
      error: redirect ? `redirect to ${response.headers.location ?? "(no location)"} not followed` : null,
      body: storable(response.bodyText),
    };
  } catch (error) {
    const message = error instanceof SafeFetchError ? `${error.kind}: ${error.reason}` : (error as Error).message;
    deliveryAttempts.inc({ result: error instanceof SafeFetchError ? error.kind : "failed" });
    return { status: null, retryAfter: undefined, durationMs: elapsed(), error: storable(message), body: null };
  }
}
