import type { Schemas } from "../../api/types";
import type { Statement } from "../../data/statements/queries";
import { apportionMoney, sumDecimals, sumMoney } from "../../lib/money";

type Line = Statement["lines"][number];
type OverrideExplanation = Schemas["OverrideExplanation"];

/** One credited person at one depth below the manager, over the period's override lines. */
export interface OverrideByReport {
  user_id: string;
  depth: number;
  /** Deals of the override lines that credit them at this depth. */
  deals: number;
  /** Σ of their credits on those deals (exact). */
  credit: string;
  /** The part of the override lines' amounts owed to their credit, to the cent. */
  override: number;
}

/**
 * A manager's override lines of a period by the person whose credit earned them (API.md §16). Each
 * line's rounded amount is split across its levels in proportion to each level's commission, then a
 * level's part across its people in proportion to their credit (level.commission × credit / Σ credits
 * of the level, before the level's cap), to the cent with the leftover cents to the largest remainders:
 * the rows add up exactly to the lines, so to the statement's `totals.override`.
 * Rows by depth, then the largest override first.
 */
export function overridesByReport(lines: readonly Line[]): { rows: OverrideByReport[]; total: number } {
  const rows = new Map<
    string,
    { user_id: string; depth: number; deals: Set<string>; credits: string[]; parts: number[] }
  >();
  const overrides = lines.filter((line) => line.kind === "override");
  for (const line of overrides) {
    const { levels } = line.explanation as OverrideExplanation;
    const byLevel = apportionMoney(
      line.amount,
      levels.map((level) => level.commission),
      line.currency,
    );
    levels.forEach((level, i) => {
      const byUser = apportionMoney(
        byLevel[i]!,
        level.users.map((u) => u.credit),
        line.currency,
      );
      level.users.forEach((user, j) => {
        const key = `${user.user_id}@${level.depth}`;
        const row = rows.get(key) ?? {
          user_id: user.user_id,
          depth: level.depth,
          deals: new Set<string>(),
          credits: [],
          parts: [],
        };
        if (line.deal_id) row.deals.add(line.deal_id);
        row.credits.push(user.credit);
        row.parts.push(byUser[j]!);
        rows.set(key, row);
      });
    });
  }
  const result = [...rows.values()].map((row) => ({
    user_id: row.user_id,
    depth: row.depth,
    deals: row.deals.size,
    credit: sumDecimals(row.credits),
    override: sumMoney(row.parts),
  }));
  result.sort((a, b) => a.depth - b.depth || b.override - a.override || (a.user_id < b.user_id ? -1 : 1));
  return { rows: result, total: sumMoney(overrides.map((line) => line.amount)) };
}
