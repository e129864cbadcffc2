import { z } from "zod";
import { AccountingSettings } from "../accounting/index.js";
import { Commission } from "../commissions/index.js";
import { Deal, Refund } from "../deals/index.js";
import { Dispute } from "../disputes/index.js";
import { Draw } from "../draws/index.js";
import { EVENT_TYPES, type EventType } from "../events/catalogue.js";
import { eventBody } from "../events/envelope.js";
import { MoneyOut } from "../http/commission-fields.js";
import { PayoutRunSummary } from "../payout-runs/index.js";
import { WebhookTestEvent } from "../webhooks/index.js";
import { ref } from "./openapi-schemas.js";

type Json = Record<string, unknown>;

/**
 * The document's `webhooks` (OpenAPI 3.1): what a subscription receives, one entry per event type of the
 * catalogue, each naming the schema of its body. Types whose `data` has one shape share one schema.
 */

const DEAL_EVENTS = [
  "deal.created",
  "deal.updated",
  "deal.deleted",
  "deal.approved",
  "deal.rejected",
  "deal.disputed",
  "deal.paid",
  "deal.cancelled",
] as const;

const DealEvent = eventBody("DealEvent", DEAL_EVENTS, {
  object: Deal.describe("The deal as GET /deals/{id} shows it, without its lines."),
});
const DealRefundedEvent = eventBody("DealRefundedEvent", ["deal.refunded"], {
  object: Deal.describe("The deal after the refund (refunded_amount, total_commission), without its lines."),
  refund: Refund,
});
const CommissionEvent = eventBody("CommissionEvent", ["commission.calculated"], {
  object: Commission,
  previous_amount: MoneyOut.nullable().describe("The line's amount before; null for a new line or one voided before."),
});
const DisputeEvent = eventBody("DisputeEvent", ["dispute.opened", "dispute.resolved"], { object: Dispute });
const PayoutRunEvent = eventBody(
  "PayoutRunEvent",
  ["payout_run.created", "payout_run.finalized", "payout_run.cancelled"],
  { object: PayoutRunSummary.describe("The run as GET /payout-runs/{id} shows it, without its payees and lines.") },
);

const DrawEvent = eventBody("DrawEvent", ["draw.created", "draw.ended"], {
  object: Draw.describe("The draw as GET /draws/{id} shows it."),
});
const AccountingSettingsEvent = eventBody("AccountingSettingsEvent", ["accounting.settings_updated"], {
  object: AccountingSettings.describe("The settings as GET /settings/accounting shows them after the change."),
});
const DrawForgivenEvent = eventBody("DrawForgivenEvent", ["draw.forgiven"], {
  object: Draw.describe("The draw after the forgiveness."),
  amount: MoneyOut.describe("What was forgiven."),
  reason: z.string().describe("Why (the request's reason)."),
});

/** Each event type: when it is sent, and its body's schema (a new type in the catalogue must be added here). */
const EVENTS: Record<EventType, [summary: string, body: z.ZodType]> = {
  "deal.created": ["A deal was created (POST, PUT by external id, or bulk)", DealEvent],
  "deal.updated": ["A deal's fields changed (PATCH, PUT by external id, or bulk)", DealEvent],
  "deal.deleted": ["A pending or rejected deal was deleted; the deal as it was", DealEvent],
  "deal.approved": ["A pending deal was approved", DealEvent],
  "deal.rejected": ["A pending deal was rejected", DealEvent],
  "deal.disputed": ["A dispute was opened on an approved deal", DealEvent],
  "deal.paid": ["An approved deal was marked paid", DealEvent],
  "deal.cancelled": [
    "An approved or paid deal was cancelled (its clawback lines follow as commission.calculated)",
    DealEvent,
  ],
  "deal.refunded": [
    "An approved or paid deal was refunded in part or whole; its status is unchanged",
    DealRefundedEvent,
  ],
  "commission.calculated": ["A commission line was written or its amount changed", CommissionEvent],
  "dispute.opened": ["A dispute was opened", DisputeEvent],
  "dispute.resolved": ["A dispute was resolved", DisputeEvent],
  "payout_run.created": ["A draft payout run was created", PayoutRunEvent],
  "payout_run.finalized": ["A payout run was finalized: its lines are paid", PayoutRunEvent],
  "payout_run.cancelled": ["A draft payout run was cancelled: its lines are released", PayoutRunEvent],
  "draw.created": ["A draw was created (API.md §18)", DrawEvent],
  "draw.ended": ["A draw was ended: its ends_on moved to the effective date", DrawEvent],
  "draw.forgiven": ["Part or all of a recoverable draw's balance was forgiven", DrawForgivenEvent],
  "accounting.settings_updated": [
    "PUT /settings/accounting changed the accounting settings (API.md §17); assets made later follow them",
    AccountingSettingsEvent,
  ],
  "webhook.test": ["POST /webhook-subscriptions/{id}/test, to that subscription only", WebhookTestEvent],
};

const SIGNATURE_HEADERS = {
  WebhookId: {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The event's id (evt_…), the same on every retry: process each id once.",
    schema: { type: "string" },
  },
  WebhookTimestamp: {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds of this attempt; refuse one far from your clock (a replay).",
    schema: { type: "string", pattern: "^\\d+$" },
  },
  WebhookSignature: {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Standard Webhooks: `v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body}>` keyed with the secret's decoded bytes, several space-separated while a rotated secret still signs. The `standardwebhooks` and `svix` libraries verify it as it is.",
    schema: { type: "string" },
  },
};

/** `deal.created` → `dealCreatedEvent`. */
const operationIdOf = (type: string) => `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Event`;

const schemaName = (body: z.ZodType) => (body.meta() as { id: string }).id;

/** What the service makes of a subscriber's answer (API.md §6), the same for every event. */
const RESPONSES = {
  WebhookDelivered: { description: "Delivered: any 2xx within 15 s." },
  WebhookGone: { description: "Gone: the subscription is disabled at once." },
  WebhookFailed: {
    description:
      "Anything else, a redirect or no answer within 15 s: failed, retried after 5 s, 5 min, 30 min, 2, 5, 10, 14, 20 and 24 h (Retry-After is honoured on 429 and 503).",
  },
};

/** The `webhooks` section and the header parameters and responses it references. */
export function webhooksSection(): { webhooks: Json; parameters: Json; responses: Json } {
  const webhooks = Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const [summary, body] = EVENTS[type];
      const operation = {
        operationId: operationIdOf(type),
        summary,
        tags: ["Webhooks"],
        parameters: Object.keys(SIGNATURE_HEADERS).map((name) => ref("parameters", name)),
        requestBody: { required: true, content: { "application/json": { schema: ref("schemas", schemaName(body)) } } },
        responses: {
          "200": ref("responses", "WebhookDelivered"),
          "410": ref("responses", "WebhookGone"),
          default: ref("responses", "WebhookFailed"),
        },
      };
      return [type, { post: operation }];
    }),
  );
  return { webhooks, parameters: SIGNATURE_HEADERS, responses: RESPONSES };
}
