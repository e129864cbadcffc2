import {
  cents,
  divPow10,
  type Fixed,
  gt,
  lt,
  min,
  minus,
  parse,
  plus,
  sign,
  times,
  truncCents,
  ZERO,
} from "../money/index.js";

// Netting per payee (API.md §13), pure and exact: the lines of one person in one currency, the deficit
// brought forward and the run's recovery limit in, the payee's figures out (as cent texts).

export type RunKind = "plan" | "spiff" | "override" | "adjustment" | "clawback" | "draw";

export interface NettingLine {
  kind: RunKind;
  amount: string;
}

/** The payee's figures, each as decimal text with two places ("-50.00"). */
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

/** The gross by kind, L (Σ lines) and P (Σ positive lines) of a payee's lines. */
export function sumLines(lines: readonly NettingLine[]) {
  const gross = {
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
    // §18's draw lines: an advance is positive, a recovery negative.
    const key = line.kind === "draw" ? (sign(amount) >= 0 ? "draw_advance" : "draw_recovery") : line.kind;
    gross[key] = plus(gross[key], amount);
    total = plus(total, amount);
    if (sign(amount) > 0) positive = plus(positive, amount);
  }
  return { gross, total, positive };
}

/** cap = P × percent / 100, truncated to the cent (33.3333 % of 100.00 is 33.33). */
export function recoveryCap(positive: Fixed, percent: string): Fixed {
  return truncCents(divPow10(times(positive, parse(percent)), 2));
}

/**
 * L > 0: recovered = min(D0, L, cap), net_pay = L − recovered, carried = D0 − recovered.
 * L ≤ 0: recovered 0, net_pay 0, carried = D0 − L. So net_pay = L − D0 + carried, and net_pay ≥ 0.
 */
export function netPayee(lines: readonly NettingLine[], broughtForward: string, percent: string): Netting {
  const { gross, total, positive } = sumLines(lines);
  const d0 = parse(broughtForward);
  const cap = recoveryCap(positive, percent);
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
  return {
    gross: {
      plan: cents(gross.plan),
      spiff: cents(gross.spiff),
      override: cents(gross.override),
      adjustment: cents(gross.adjustment),
      clawback: cents(gross.clawback),
      draw_advance: cents(gross.draw_advance),
      draw_recovery: cents(gross.draw_recovery),
    },
    line_count: lines.length,
    lines_total: cents(total),
    positive_total: cents(positive),
    deficit_brought_forward: cents(d0),
    recovery_cap: cents(cap),
    recovered: cents(recovered),
    net_pay: cents(net),
    deficit_carried_forward: cents(carried),
  };
}
