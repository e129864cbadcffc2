import { z } from "zod";
import { RecalculationJobId } from "../commissions/index.js";
import { FxMaxAgeDays } from "../exchange-rates/index.js";
import { Currency, DealType, Money, MoneyOut, Rate } from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { Id, QueryBoolean } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";

export const Spiff = z
  .object({
    id: z.string().describe("spiff_…"),
    name: z.string(),
    description: z.string().nullable(),
    currency: z.string(),
    starts_on: DateOut,
    ends_on: DateOut,
    criteria: z.object({
      min_arr_amount: MoneyOut.nullable(),
      deal_types: z.array(DealType).nullable(),
      user_ids: z.array(z.string()).nullable(),
    }),
    payout: z.union([
      z.object({ type: z.literal("flat"), amount: MoneyOut }),
      z.object({ type: z.literal("rate"), rate: z.number() }),
    ]),
    active: z.boolean(),
    fx_max_age_days: FxMaxAgeDays,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Spiff" });
export type Spiff = z.infer<typeof Spiff>;

export const SpiffWritten = Spiff.extend({ recalculation_job_id: RecalculationJobId }).meta({ id: "SpiffWritten" });
export type SpiffWritten = z.infer<typeof SpiffWritten>;

const Criteria = z
  .strictObject({
    min_arr_amount: Money.nullable().optional().describe("The deal's arr_amount must be at least this."),
    deal_types: z.array(DealType).min(1).nullable().optional().describe("Only these deal types qualify."),
    user_ids: z.array(Id).min(1).max(1000).nullable().optional().describe("Only these credited users earn it."),
  })
  .describe("Every condition given must hold; omitted or null means any.");

const Payout = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("flat"),
      amount: Money.describe("Paid per deal, divided by split percent."),
    }),
    z.strictObject({ type: z.literal("rate"), rate: Rate.describe("× each user's credit, like a plan rate.") }),
  ])
  .describe('{"type":"flat","amount":500} or {"type":"rate","rate":0.02}');

const writable = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable(),
  currency: Currency,
  starts_on: IsoDate,
  ends_on: IsoDate,
  criteria: Criteria,
  payout: Payout,
  active: z.boolean(),
  fx_max_age_days: FxMaxAgeDays,
};

export const CreateSpiffBody = z.strictObject({
  ...writable,
  description: writable.description.optional(),
  currency: writable.currency.default("USD"),
  criteria: writable.criteria.default({}),
  active: writable.active.default(true),
  fx_max_age_days: writable.fx_max_age_days.default(7),
});
export type CreateSpiffBody = z.infer<typeof CreateSpiffBody>;

export const UpdateSpiffBody = z.strictObject(writable).partial();
export type UpdateSpiffBody = z.infer<typeof UpdateSpiffBody>;

export const ListSpiffsQuery = PageQuery.extend({ active: QueryBoolean.optional() }).strict();
export type ListSpiffsQuery = z.infer<typeof ListSpiffsQuery>;
