import { z } from "zod";
import { Currency, Money, MoneyOut } from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { commaList, Id } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";

// Draws (API.md §18): a guaranteed minimum per period, recoverable or not, settled in payout runs.

export const DRAW_KINDS = ["recoverable", "non_recoverable"] as const;
export const DRAW_PERIODS = ["month", "quarter"] as const;
export const DRAW_STATUSES = ["active", "ended"] as const;

const DrawKind = z.enum(DRAW_KINDS);
const DrawPeriodKind = z.enum(DRAW_PERIODS);

export const DrawPeriodState = z
  .object({
    period: z.string().describe('"2026-03" or "2026-Q1"'),
    starts_on: DateOut,
    ends_on: DateOut,
    earned: MoneyOut.nullable().describe(
      "E: the person's plan, SPIFF and override lines in the draw's currency with a period inside this one (a " +
        "month in its quarter), in the settling run and the runs finalized before it; null until settled.",
    ),
    advance: MoneyOut.nullable().describe("max(0, amount − earned): the draw line it paid; null until settled."),
    payout_run_id: z
      .string()
      .nullable()
      .describe("prun_…: the draft or finalized run that settled it; null until then."),
  })
  .meta({ id: "DrawPeriod" });

export const DrawEntry = z
  .object({
    type: z.enum(["advance", "recovery", "forgiveness"]),
    amount: MoneyOut.describe("Signed as it moves the balance: an advance > 0, a recovery or forgiveness < 0."),
    line_id: z.string().nullable().describe("com_…: the draw line (advances and recoveries); null for forgiveness."),
    payout_run_id: z.string().nullable(),
    reason: z.string().nullable().describe("Forgiveness only: why."),
    created_at: Timestamp,
  })
  .meta({ id: "DrawEntry" });

export const Draw = z
  .object({
    id: z.string().describe("draw_…"),
    user_id: z.string(),
    kind: DrawKind,
    amount: MoneyOut.describe("The guaranteed minimum per period."),
    currency: z.string(),
    period: DrawPeriodKind,
    starts_on: DateOut,
    ends_on: DateOut,
    recovery_starts_on: DateOut.nullable().describe(
      "Recoverable draws: runs through this day or later recover; null otherwise.",
    ),
    status: z.enum(DRAW_STATUSES).describe("ended once ends_on has passed (UTC), else active."),
    balance: MoneyOut.describe(
      "What later runs will recover: Σ entries (advances − recoveries − forgiveness) of draft and finalized runs; " +
        "always 0 for a non-recoverable draw.",
    ),
    periods: z.array(DrawPeriodState).describe("Every period of the draw, oldest first, settled or not."),
    entries: z.array(DrawEntry).describe("Oldest first."),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Draw" });
export type Draw = z.infer<typeof Draw>;

const PositiveMoney = Money.refine((s) => Number(s) > 0, { message: "must be greater than 0" });

export const CreateDrawBody = z.strictObject({
  user_id: Id.describe("usr_…: who is guaranteed the amount."),
  kind: DrawKind,
  amount: PositiveMoney.describe("> 0, at most the currency's minor-unit decimals."),
  currency: Currency.default("USD"),
  period: DrawPeriodKind,
  starts_on: IsoDate.describe("A period's first day (the 1st of a month; of January, April, July or October)."),
  ends_on: IsoDate.describe("A period's last day, ≥ starts_on, at most 10 years after it."),
  recovery_starts_on: IsoDate.optional().describe("Recoverable only: ≥ starts_on; default starts_on."),
});
export type CreateDrawBody = z.infer<typeof CreateDrawBody>;

export const EndDrawBody = z.strictObject({
  effective_date: IsoDate.describe(
    "The new ends_on: periods ending after it never advance (no proration). Not after the current ends_on, not " +
      "before the day before starts_on (422); before the end of a period already settled → 409 conflict.",
  ),
});
export type EndDrawBody = z.infer<typeof EndDrawBody>;

export const ForgiveDrawBody = z.strictObject({
  amount: PositiveMoney.optional().describe("Default: the whole balance. Above the balance → 422."),
  reason: z.string().trim().min(1).max(2000),
});
export type ForgiveDrawBody = z.infer<typeof ForgiveDrawBody>;

export const ListDrawsQuery = PageQuery.extend({
  user_id: z.string().optional(),
  currency: z.string().optional(),
  status: commaList(DRAW_STATUSES, "a draw status").optional(),
}).strict();
export type ListDrawsQuery = z.infer<typeof ListDrawsQuery>;
