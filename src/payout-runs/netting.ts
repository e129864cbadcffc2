import {
  divPow10,
  type Fixed,
  gt,
  lt,
  min,
  minorUnits,
  minus,
  moneyText,
  parse,
  plain,
  plus,
  sign,
  times,
  truncTo,
  ZERO,
} from "../money/index.js";

// Netting per payee (API.md §13), pure and exact: the lines of one person in one currency, the deficit
// brought forward and the run's recovery limit in, the payee's figures out (as texts at the currency's
// minor unit, API.md §15).

export type RunKind = "plan" | "spiff" | "override" | "adjustment" | "clawback" | "draw";

export interface NettingLine {
  kind: RunKind;
  amount: string;
}

/** The payee's figures, each as decimal text with the currency's places ("-50.00" USD, "-50" JPY). */
export interface Netting {
  gross: Record<"plan" | "spiff" | "override" | "adjustment" | "clawback" | "draw_advance" | "draw_recovery", string>;
  line_count: number;
  lines_total: string;
  positive_total: string;
  deficit_brought_forward: string;
  recovery_cap: string;
  recovered: string;
  net_pay: string;
  deficit_carried_forward: string;
}

type GrossKind = keyof Netting["gross"];

/** A payee's lines summed (by SQL for a run: payees-repository.ts), each sum as exact decimal text. */
export interface PayeeSums {
  gross: Record<GrossKind, string>;
  line_count: number;
  /** L: Σ lines. */
  total: string;
  /** P: Σ positive lines. */
  positive: string;
}

/** The sums of a payee's lines: gross by kind (§18's draw lines: an advance positive, a recovery negative), L and P. */
export function sumLines(lines: readonly NettingLine[]): PayeeSums {
  const gross: Record<GrossKind, Fixed> = {
    plan: ZERO,
    spiff: ZERO,
    override: ZERO,
    adjustment: ZERO,
    clawback: ZERO,
    draw_advance: ZERO,
    draw_recovery: ZERO,
  };
  let total = ZERO;
  let positive = ZERO;
  for (const line of lines) {
    const amount = parse(line.amount);
    const key = line.kind === "draw" ? (sign(amount) >= 0 ? "draw_advance" : "draw_recovery") : line.kind;
    gross[key] = plus(gross[key], amount);
    total = plus(total, amount);
    if (sign(amount) > 0) positive = plus(positive, amount);
  }
  const text = (kind: GrossKind) => plain(gross[kind]);
  return {
    gross: {
      plan: text("plan"),
      spiff: text("spiff"),
      override: text("override"),
      adjustment: text("adjustment"),
      clawback: text("clawback"),
      draw_advance: text("draw_advance"),
      draw_recovery: text("draw_recovery"),
    },
    line_count: lines.length,
    total: plain(total),
    positive: plain(positive),
  };
}

/** cap = P × percent / 100, truncated to the minor unit (33.3333 % of 100.00 USD is 33.33). */
export function recoveryCap(positive: Fixed, percent: string, currency: string): Fixed {
  return truncTo(divPow10(times(positive, parse(percent)), 2), minorUnits(currency));
}

/** netSums of the lines' sums. */
export function netPayee(
  lines: readonly NettingLine[],
  broughtForward: string,
  percent: string,
  currency: string,
): Netting {
  return netSums(sumLines(lines), broughtForward, percent, currency);
}

/**
 * L > 0: recovered = min(D0, L, cap), net_pay = L − recovered, carried = D0 − recovered.
 * L ≤ 0: recovered 0, net_pay 0, carried = D0 − L. So net_pay = L − D0 + carried, and net_pay ≥ 0.
 */
export function netSums(sums: PayeeSums, broughtForward: string, percent: string, currency: string): Netting {
  const cents = (a: Fixed) => moneyText(a, currency);
  const total = parse(sums.total);
  const positive = parse(sums.positive);
  const d0 = parse(broughtForward);
  const cap = recoveryCap(positive, percent, currency);
  let recovered = ZERO;
  let net = ZERO;
  let carried: Fixed;
  if (gt(total, ZERO)) {
    recovered = min(min(d0, total), cap);
    net = minus(total, recovered);
    carried = minus(d0, recovered);
  } else {
    carried = minus(d0, total);
  }
  if (lt(net, ZERO) || lt(carried, ZERO)) throw new RangeError("netting went negative");
  const g = sums.gross;
  return {
    gross: {
      plan: cents(parse(g.plan)),
      spiff: cents(parse(g.spiff)),
      override: cents(parse(g.override)),
      adjustment: cents(parse(g.adjustment)),
      clawback: cents(parse(g.clawback)),
      draw_advance: cents(parse(g.draw_advance)),
      draw_recovery: cents(parse(g.draw_recovery)),
    },
    line_count: sums.line_count,
    lines_total: cents(total),
    positive_total: cents(positive),
    deficit_brought_forward: cents(d0),
    recovery_cap: cents(cap),
    recovered: cents(recovered),
    net_pay: cents(net),
    deficit_carried_forward: cents(carried),
  };
}
