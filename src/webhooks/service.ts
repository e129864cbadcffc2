import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type {
  CreateSubscriptionBody,
  ListSubscriptionsQuery,
  UpdateSubscriptionBody,
  WebhookSubscription,
  WebhookSubscriptionWithSecret,
} from "./schema.js";
import { encryptSecret } from "./secret-box.js";
import { targetPolicy, type WebhookSettings } from "./settings.js";
import { generateWebhookSecret, secretHint } from "./sign.js";
import { validateTargetUrl } from "./target-policy.js";

const RESOURCE = "webhook_subscription";
/** How long the previous secret keeps signing after rotate-secret. */
const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** 422 naming `url` when the target breaks the rules of API.md §6; resolved before any transaction opens. */
async function checkTarget(settings: WebhookSettings, url: string): Promise<void> {
  const reason = await validateTargetUrl(url, targetPolicy(settings));
  if (reason === null) return;
  const message = reason.replace(/^url /, "");
  throw new AppError("validation_error", `url is not an acceptable webhook target: ${message}`, [
    { param: "url", message },
  ]);
}

function newSecret(settings: WebhookSettings) {
  const secret = generateWebhookSecret();
  return { secret, encrypted: encryptSecret(settings.secretKey, secret), hint: secretHint(secret) };
}

export async function listSubscriptions(ctx: Ctx, query: ListSubscriptionsQuery): Promise<Page<WebhookSubscription>> {
  requireScope(ctx, "admin");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listSubscriptions(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getSubscription(ctx: Ctx, id: string): Promise<WebhookSubscription> {
  requireScope(ctx, "admin");
  const subscription = await repo.findSubscription(ctx.db, id);
  if (!subscription) throw notFound("Webhook subscription", id);
  return subscription;
}

export async function createSubscription(
  ctx: Ctx,
  settings: WebhookSettings,
  input: CreateSubscriptionBody,
): Promise<WebhookSubscriptionWithSecret> {
  requireScope(ctx, "admin");
  await checkTarget(settings, input.url);
  const { secret, encrypted, hint } = newSecret(settings);
  return withTransaction(ctx, async (tx) => {
    const subscription = await repo.insertSubscription(tx, {
      id: newId("whsub", ctx.now.getTime()),
      url: input.url,
      description: input.description ?? null,
      events: JSON.stringify(input.events),
      status: "active",
      disabled_reason: null,
      secret_encrypted: encrypted,
      secret_hint: hint,
      previous_secret_encrypted: null,
      previous_secret_expires_at: null,
      failing_since: null,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    await audit(tx, ctx, {
      action: `${RESOURCE}.create`,
      resource: RESOURCE,
      resourceId: subscription.id,
      after: subscription,
    });
    return { ...subscription, secret };
  });
}

function changesOf(before: WebhookSubscription, input: UpdateSubscriptionBody) {
  const changed = {
    url: input.url !== undefined && input.url !== before.url,
    description: input.description !== undefined && input.description !== before.description,
    events: input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(before.events),
    status: input.status !== undefined && input.status !== before.status,
  };
  return { any: Object.values(changed).some(Boolean), ...changed };
}

export async function updateSubscription(
  ctx: Ctx,
  settings: WebhookSettings,
  id: string,
  input: UpdateSubscriptionBody,
): Promise<WebhookSubscription> {
  requireScope(ctx, "admin");
  if (input.url !== undefined) await checkTarget(settings, input.url);
  return withTransaction(ctx, async (tx) => {
    const before = (await repo.lockSubscription(tx, id))?.subscription;
    if (!before) throw notFound("Webhook subscription", id);
    await ctx.precondition?.(tx);
    const changed = changesOf(before, input);
    if (!changed.any) return before;
    const after = await repo.updateSubscription(tx, id, {
      ...(changed.url ? { url: input.url! } : {}),
      ...(changed.description ? { description: input.description ?? null } : {}),
      ...(changed.events ? { events: JSON.stringify(input.events) } : {}),
      // Either way the service's own reason and failure clock no longer apply.
      ...(changed.status ? { status: input.status!, disabled_reason: null, failing_since: null } : {}),
      updated_at: ctx.now,
    });
    await audit(tx, ctx, { action: `${RESOURCE}.update`, resource: RESOURCE, resourceId: id, before, after });
    return after;
  });
}

export async function deleteSubscription(ctx: Ctx, id: string): Promise<void> {
  requireScope(ctx, "admin");
  await withTransaction(ctx, async (tx) => {
    const before = (await repo.lockSubscription(tx, id))?.subscription;
    if (!before) throw notFound("Webhook subscription", id);
    await repo.deleteSubscription(tx, id);
    await audit(tx, ctx, { action: `${RESOURCE}.delete`, resource: RESOURCE, resourceId: id, before });
  });
}

/** A new secret, shown once; the current one becomes the previous and keeps signing for 24 h. */
export async function rotateSecret(
  ctx: Ctx,
  settings: WebhookSettings,
  id: string,
): Promise<WebhookSubscriptionWithSecret> {
  requireScope(ctx, "admin");
  const { secret, encrypted, hint } = newSecret(settings);
  return withTransaction(ctx, async (tx) => {
    const locked = await repo.lockSubscription(tx, id);
    if (!locked) throw notFound("Webhook subscription", id);
    const after = await repo.updateSubscription(tx, id, {
      secret_encrypted: encrypted,
      secret_hint: hint,
      previous_secret_encrypted: locked.secretEncrypted,
      previous_secret_expires_at: new Date(ctx.now.getTime() + ROTATION_GRACE_MS),
      updated_at: ctx.now,
    });
    const before = locked.subscription;
    await audit(tx, ctx, { action: `${RESOURCE}.rotate_secret`, resource: RESOURCE, resourceId: id, before, after });
    return { ...after, secret };
  });
}
