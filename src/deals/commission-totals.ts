import type { Commission } from "../commissions/index.js";
import { type Fixed, parse, plain, plus, ZERO } from "../money/index.js";
import type { Deal } from "./schema.js";

/*
 * API.md §15 "nothing sums across currencies": a deal's totals per line currency, and the one currency
 * its total_commission (and its disputes' amounts) is in. deal-json-repository.ts renders the same in SQL.
 */

/** Σ of a deal's non-void lines of one person in one currency, plan lines apart (the owner's decides). */
export interface LineSum {
  user_id: string;
  currency: string;
  plan: boolean;
  /** Exact decimal text. */
  amount: string;
}

export type CommissionTotals = Pick<Deal, "total_commission" | "total_commission_currency" | "commission_totals">;

/** The line sums of lines already read (void ones count for no one). */
export function lineSumsOf(
  lines: Pick<Commission, "user_id" | "currency" | "kind" | "amount" | "status">[],
): LineSum[] {
  const sums = new Map<string, LineSum & { sum: Fixed }>();
  for (const line of lines) {
    if (line.status === "void") continue;
    const key = `${line.user_id} ${line.currency} ${line.kind === "plan"}`;
    const seen = sums.get(key) ?? {
      user_id: line.user_id,
      currency: line.currency,
      plan: line.kind === "plan",
      amount: "0",
      sum: ZERO,
    };
    seen.sum = plus(seen.sum, parse(line.amount));
    sums.set(key, seen);
  }
  return [...sums.values()].map(({ sum, ...s }) => ({ ...s, amount: plain(sum) }));
}

/**
 * Per currency (sorted by code), Σ of the lines; the total's currency: the lines' shared one, the deal's
 * when there is none, else the owner's plan line's (else the deal's); and the total in it alone.
 */
export function commissionTotals(sums: LineSum[], deal: { currency: string; owner_id: string }): CommissionTotals {
  const byCurrency = new Map<string, Fixed>();
  for (const s of sums) byCurrency.set(s.currency, plus(byCurrency.get(s.currency) ?? ZERO, parse(s.amount)));
  const currencies = [...byCurrency.keys()].sort();
  const ownerPlan = sums.filter((s) => s.plan && s.user_id === deal.owner_id).map((s) => s.currency);
  const currency =
    currencies.length === 1 ? currencies[0]! : (currencies.find((c) => ownerPlan.includes(c)) ?? deal.currency);
  return {
    total_commission: Number(plain(byCurrency.get(currency) ?? ZERO)),
    total_commission_currency: currency,
    commission_totals: currencies.map((c) => ({ currency: c, amount: Number(plain(byCurrency.get(c)!)) })),
  };
}

/**
 * A dispute's amounts (API.md §15, §20 b): the totals of its opener's own lines on the deal (a user-scope
 * dispute) or of the whole deal; its expected and resolved amounts are in their total_commission_currency.
 */
export function disputeTotals(
  deal: { currency: string; owner_id: string; line_sums?: LineSum[] },
  scopeUserId: string | null,
): CommissionTotals {
  const sums = deal.line_sums ?? [];
  return commissionTotals(scopeUserId ? sums.filter((s) => s.user_id === scopeUserId) : sums, deal);
}
