import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { WebhookSubscription } from "./schema.js";

export async function getSubscription(ctx: Ctx, id: string): Promise<WebhookSubscription> {
  requireScope(ctx, "admin");
  const subscription = await repo.findSubscription(ctx.db, id);
  if (!subscription) throw notFound("Webhook subscription", id);
  return subscription;
}
