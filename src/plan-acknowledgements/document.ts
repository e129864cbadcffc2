import { createHash } from "node:crypto";
import type { VersionTerms } from "./repository.js";

/** "0.125" → "12.5": a rate as a percent by moving the decimal point in its text, never a float product. */
export function percentOf(rate: number | string): string {
  const text = String(rate);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return `${text} (as a fraction)`;
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const padded = fraction.padEnd(2, "0");
  const intPart = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, "");
  const rest = padded.slice(2).replace(/0+$/, "");
  return `${negative ? "-" : ""}${intPart}${rest ? `.${rest}` : ""}%`;
}

/** An exact decimal string grouped, without zeros past its cents ("100000.000" → "100,000.00"). */
function money(currency: string, amount: string): string {
  const [whole = "0", fraction = ""] = amount.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // The column's scale is the widest currency's (3); a currency's own digits are kept, at least 2 shown.
  return `${currency} ${grouped}.${fraction.replace(/0+$/, "").padEnd(2, "0")}`;
}

/**
 * The plan version's terms as a readable, printable document (plain text, one term a line). Its SHA-256
 * is what an acknowledgement records: the same version always renders the same bytes.
 */
export function planDocument(terms: VersionTerms, version: number): string {
  const lines = [
    `COMMISSION PLAN: ${terms.plan_name}`,
    `Version ${version}`,
    "",
    `Effective from: ${terms.effective_from}`,
    `Effective to: ${terms.effective_to ?? "until replaced"}`,
    `Currency: ${terms.currency}`,
    `Commission period: ${terms.period}`,
    `Quota per period: ${terms.quota === null ? "none" : money(terms.currency, terms.quota)}`,
    "",
  ];
  if (terms.plan_kind === "override") {
    lines.push("Override rates by reporting depth:");
    for (const level of terms.override_levels ?? []) lines.push(`  depth ${level.depth}: ${percentOf(level.rate)}`);
  } else if (terms.tiers.length > 0) {
    lines.push("Commission rates by quota attainment:");
    for (const tier of terms.tiers) {
      lines.push(`  from ${percentOf(tier.from_attainment)} of quota: ${percentOf(tier.rate)} of deal value`);
    }
  } else if (terms.base_rate !== null) {
    lines.push(`Commission rate: ${percentOf(terms.base_rate)} of deal value`);
  }
  const multipliers = Object.entries(terms.deal_type_multipliers ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (multipliers.length > 0) {
    lines.push("", "Deal type multipliers:");
    for (const [type, factor] of multipliers) lines.push(`  ${type.replaceAll("_", " ")}: × ${factor}`);
  }
  lines.push(
    "",
    `Minimum deal amount: ${terms.min_deal_amount === null ? "none" : money(terms.currency, terms.min_deal_amount)}`,
    `Cap per period: ${terms.cap_per_period === null ? "none" : money(terms.currency, terms.cap_per_period)}`,
    `Clawback: ${
      terms.clawback === null
        ? "none"
        : `${terms.clawback.percent}% of the commission earned on a deal cancelled or refunded within ${terms.clawback.window_days} days of its close date${terms.clawback.proration === "unserved_days" ? ", prorated by the unserved days" : ""}`
    }`,
    "",
  );
  return lines.join("\n");
}

export function sha256Of(document: string): string {
  return createHash("sha256").update(document, "utf8").digest("hex");
}
