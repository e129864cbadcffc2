// API.md §14: what a cancellation or a refund claws back, per user and plan, as a pure function of the deal,
// its lines, the clawed versions' policies and its refunds. Exact: scaled integers (src/money), one rounding.

import {
  type Fixed,
  formatMoney as formatIn,
  fx,
  minorUnits,
  minus,
  moneyNumber,
  moneyText,
  neg,
  parse,
  plain,
  plus,
  quotient,
  sign,
  times,
  ZERO,
} from "../../money/index.js";

export interface ClawbackPolicy {
  window_days: number;
  /** Exact decimal text, 0–100. */
  percent: string;
  proration: "none" | "unserved_days";
}

export interface ClawbackDeal {
  /** The clawed lines' currency (while plan lines are in the deal's, the deal's): the clawback's minor unit. */
  currency: string;
  close_date: string;
  arr_amount: string;
  contract_start: string | null;
  contract_end: string | null;
}

/** A line of the deal, any kind and status (void ones are skipped). */
export interface ClawbackSourceLine {
  id: string;
  user_id: string;
  kind: string;
  plan_id: string | null;
  plan_version: number | null;
  amount: string | number;
  status: string;
  /** The line's (API.md §15; absent: the deal's). A clawback is per currency: nothing is summed across. */
  currency?: string;
}

/** A plan version's name and policy, keyed `plan_id:version` (`versionKey`). */
export interface ClawbackPlan {
  name: string;
  policy: ClawbackPolicy | null;
}

/** `reason`: the admin's words, shown with every clawback line the event writes (null in a preview). */
export type ClawbackEvent =
  | { type: "cancel"; effective_date: string; reason?: string | null }
  | { type: "refund"; effective_date: string; amount: string; refund_id: string | null; reason?: string | null };

export interface ClawbackInput {
  deal: ClawbackDeal;
  lines: ClawbackSourceLine[];
  plans: ReadonlyMap<string, ClawbackPlan>;
  /** The deal's earlier refunds (the event's own refund excluded). */
  refunds: { amount: string; effective_date: string }[];
  event: ClawbackEvent;
}

export type FactorKind = "full" | "unserved_days" | "refunded";

export type ClawbackExplanation = {
  summary: string;
  basis: string;
  percent: string;
  factor: { kind: FactorKind; numerator: string; denominator: string; value: string };
  window: { close_date: string; effective_date: string; days: number; window_days: number };
  effective_date: string;
  trigger: { type: "cancel" | "refund"; refund_id: string | null };
  reason: string | null;
  target: string;
  already_clawed_back: string;
  line_ids: string[];
  amount: number;
};

/** One summary row per user, plan and currency (plan_id null: nothing earned under a plan); amount ≤ 0, as the line. */
export interface ClawbackSummaryItem {
  user_id: string;
  plan_id: string | null;
  /** The clawed lines' currency (the deal's when nothing was earned under a plan). */
  currency: string;
  amount: number;
  note: string;
}

export interface ClawbackLine {
  user_id: string;
  plan_id: string;
  plan_version: number;
  /** Negative, at its currency's minor unit ("-805.48"). */
  amount: string;
  /** The currency of the lines it claws back. */
  currency: string;
  explanation: ClawbackExplanation;
}

export interface ClawbackResult {
  summary: ClawbackSummaryItem[];
  lines: ClawbackLine[];
}

export const versionKey = (planId: string, version: number) => `${planId}:${version}`;

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  const ms = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
  return Math.round((ms(to) - ms(from)) / DAY_MS);
}

/** The lines a clawback takes back (API.md §14 "E"): plan, SPIFF and override lines. */
const EARNING_KINDS: ReadonlySet<string> = new Set(["plan", "spiff", "override"]);

interface Group {
  user_id: string;
  plan_id: string | null;
  plan_version: number | null;
  currency: string;
  basis: Fixed;
  line_ids: string[];
}

/** Each user's earning lines by the plan they count under and their currency, in the order the lines come. */
function groupsOf(lines: ClawbackSourceLine[], dealCurrency: string): Group[] {
  const live = lines.filter((l) => l.status !== "void");
  const planOf = new Map<string, ClawbackSourceLine>();
  for (const l of live) if (l.kind === "plan" && l.plan_id && !planOf.has(l.user_id)) planOf.set(l.user_id, l);
  const groups = new Map<string, Group>();
  const users = new Set<string>();
  for (const l of live) {
    users.add(l.user_id);
    if (!EARNING_KINDS.has(l.kind)) continue;
    const planLine = planOf.get(l.user_id);
    const planId = l.kind === "plan" ? l.plan_id : (l.plan_id ?? planLine?.plan_id ?? null);
    const currency = l.currency ?? dealCurrency;
    const key = `${l.user_id}\u0000${planId ?? ""}\u0000${currency}`;
    const group = groups.get(key) ?? {
      user_id: l.user_id,
      plan_id: planId,
      plan_version: null,
      currency,
      basis: ZERO,
      line_ids: [],
    };
    group.basis = plus(group.basis, parse(l.amount));
    group.line_ids.push(l.id);
    // The version of the user's plan line decides; a group without one (override lines only) takes its first.
    if (planLine && planLine.plan_id === planId) group.plan_version = planLine.plan_version;
    else group.plan_version ??= l.plan_version;
    groups.set(key, group);
  }
  // A user with lines but none earned under a plan is listed too, so every person on the deal has a row.
  for (const user of users) {
    if (![...groups.values()].some((g) => g.user_id === user)) {
      const none = { user_id: user, plan_id: null, plan_version: null, currency: dealCurrency, basis: ZERO };
      groups.set(`${user}\u0000`, { ...none, line_ids: [] });
    }
  }
  return [...groups.values()];
}

/** |Σ| of the clawback lines already on this user, deal, plan and currency. */
function alreadyClawed(lines: ClawbackSourceLine[], g: Group, dealCurrency: string): Fixed {
  let sum = ZERO;
  for (const l of lines) {
    const same = l.user_id === g.user_id && l.plan_id === g.plan_id && (l.currency ?? dealCurrency) === g.currency;
    if (l.kind === "clawback" && l.status !== "void" && same) {
      sum = plus(sum, parse(l.amount));
    }
  }
  return sign(sum) < 0 ? negated(sum) : sum;
}

const negated = (a: Fixed): Fixed => fx(neg(a.c), a.s);

interface Factor {
  kind: FactorKind;
  numerator: Fixed;
  denominator: Fixed;
  /** Why, in words, for the summary. */
  words: string;
}

/** f of API.md §14 for this group's policy: full, unserved days of the contract, or the share refunded. */
function factorOf(input: ClawbackInput, policy: ClawbackPolicy, places: number): Factor {
  const formatMoney = (a: Fixed) => formatIn(a, places);
  const { deal, event } = input;
  if (event.type === "refund") {
    const inWindow = (date: string) => daysBetween(deal.close_date, date) <= policy.window_days;
    let refunded = parse(event.amount);
    for (const r of input.refunds) if (inWindow(r.effective_date)) refunded = plus(refunded, parse(r.amount));
    const arr = parse(deal.arr_amount);
    const words = `${formatMoney(refunded)} refunded within the window of ${formatMoney(arr)}`;
    return { kind: "refunded", numerator: refunded, denominator: arr, words };
  }
  if (policy.proration === "unserved_days") {
    if (deal.contract_start !== null && deal.contract_end !== null) {
      const term = daysBetween(deal.contract_start, deal.contract_end);
      const left = Math.min(Math.max(daysBetween(event.effective_date, deal.contract_end), 0), term);
      const words = `${left} unserved of ${term} contract days`;
      return { kind: "unserved_days", numerator: fx(left), denominator: fx(term), words };
    }
    return { kind: "full", numerator: fx(1), denominator: fx(1), words: "no contract dates, so the whole amount" };
  }
  return { kind: "full", numerator: fx(1), denominator: fx(1), words: "the whole amount" };
}

/** The clawback lines one cancellation or refund writes, and a summary row per user and plan. */
export function computeClawbacks(input: ClawbackInput): ClawbackResult {
  const { deal, event } = input;
  const days = daysBetween(deal.close_date, event.effective_date);
  const summary: ClawbackSummaryItem[] = [];
  const lines: ClawbackLine[] = [];
  const dealPlaces = minorUnits(deal.currency);
  for (const g of groupsOf(input.lines, deal.currency)) {
    const places = minorUnits(g.currency);
    const formatMoney = (a: Fixed) => formatIn(a, places);
    const row = (note: string, amount = 0) =>
      summary.push({ user_id: g.user_id, plan_id: g.plan_id, currency: g.currency, amount, note });
    if (g.plan_id === null || g.plan_version === null) {
      row("nothing earned under a plan on this deal, so nothing is clawed back");
      continue;
    }
    const plan = input.plans.get(versionKey(g.plan_id, g.plan_version));
    const name = plan?.name ?? g.plan_id;
    const policy = plan?.policy ?? null;
    if (!policy) {
      row(`no clawback policy on plan ${name} (version ${g.plan_version})`);
      continue;
    }
    if (days > policy.window_days) {
      row(`outside the ${policy.window_days}-day window: effective ${days} days after close`);
      continue;
    }
    const f = factorOf(input, policy, dealPlaces);
    const percent = parse(policy.percent);
    const target =
      sign(f.denominator) === 0
        ? ZERO
        : quotient(times(times(g.basis, percent), f.numerator), times(fx(100), f.denominator), places);
    const already = alreadyClawed(input.lines, g, deal.currency);
    const owed = minus(target, already);
    if (sign(owed) <= 0) {
      row(
        sign(target) <= 0
          ? `nothing to claw back: the target is ${formatMoney(max0(target))}`
          : `already clawed back ${formatMoney(already)} of the ${formatMoney(target)} target`,
      );
      continue;
    }
    const amount = negated(owed);
    const trigger =
      event.type === "cancel"
        ? `Cancellation effective ${event.effective_date}`
        : `Refund${event.refund_id ? ` ${event.refund_id}` : ""} effective ${event.effective_date}`;
    const text =
      `${trigger}: ${formatMoney(g.basis)} earned under plan ${name} × ${plain(percent)}% × ${f.words} = ` +
      `${formatMoney(target)}${sign(already) > 0 ? ` less ${formatMoney(already)} already clawed back` : ""}` +
      ` → ${formatMoney(amount)}`;
    lines.push({
      user_id: g.user_id,
      plan_id: g.plan_id,
      plan_version: g.plan_version,
      amount: moneyText(amount, g.currency),
      currency: g.currency,
      explanation: {
        // The line names the admin's reason; the summary row is the preview's words, reason or not.
        summary: event.reason ? `${text}. Reason: ${event.reason}` : text,
        basis: plain(g.basis),
        percent: plain(percent),
        factor: {
          kind: f.kind,
          numerator: plain(f.numerator),
          denominator: plain(f.denominator),
          value: sign(f.denominator) === 0 ? "0" : plain(quotient(f.numerator, f.denominator, 10)),
        },
        window: {
          close_date: deal.close_date,
          effective_date: event.effective_date,
          days,
          window_days: policy.window_days,
        },
        effective_date: event.effective_date,
        trigger: { type: event.type, refund_id: event.type === "refund" ? event.refund_id : null },
        reason: event.reason ?? null,
        target: plain(target),
        already_clawed_back: plain(already),
        line_ids: g.line_ids,
        amount: moneyNumber(amount, g.currency),
      },
    });
    row(text, moneyNumber(amount, g.currency));
  }
  return { summary, lines };
}

const max0 = (a: Fixed): Fixed => (sign(a) < 0 ? ZERO : a);
