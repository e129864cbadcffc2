import { CSV_BOM, csvField } from "../commissions/index.js";
import { AppError, validationError } from "../errors.js";
import { minus, moneyText, parse, plain } from "../money/index.js";
import type { PayoutRunDetail, PayoutRunPayee } from "./schema.js";

// What the three export formats share (API.md §13): RFC 4180 with CRLF, amounts in the currency's minor
// units, finalized runs only, and for the payroll formats one currency.

/** A plain amount with the currency's decimals (API.md §15): "1200.00", "-50.00", "1200" for JPY, "1.250" for KWD. */
export const amountText = (value: number, currency: string): string => moneyText(parse(value), currency);

/** Rows to CSV text, each ending CRLF; the generic format opens with the BOM, the payroll formats do not. */
export function csvOf(rows: string[][], bom: boolean): string {
  return (bom ? CSV_BOM : "") + rows.map((row) => `${row.join(",")}\r\n`).join("");
}

/** Plain RFC 4180 cells (the payroll formats: their importers take the values as they are). */
export const plainRow = (cells: string[]) => cells.map(csvField);

export function onlyFinalized(run: PayoutRunDetail): void {
  if (run.status !== "finalized") {
    throw new AppError("invalid_transition", `Payout run ${run.id} is ${run.status}: only finalized runs export`);
  }
}

/** The payees of the one currency a payroll file pays: the one asked for, else the run's only one. */
export function payeesInCurrency(run: PayoutRunDetail, asked: string | undefined): PayoutRunPayee[] {
  const currencies = [...new Set(run.payees.map((p) => p.currency))].sort();
  const currency = asked ?? currencies[0];
  if (!asked && currencies.length > 1) {
    throw validationError("currency", `is required: run ${run.id} pays ${currencies.join(", ")}; a file pays one`);
  }
  return run.payees.filter((p) => p.currency === currency);
}

/** SPIFFs paid as a bonus, up to net_pay: min(max(spiff, 0), net_pay). */
export const bonusOf = (p: PayoutRunPayee) => Math.min(Math.max(p.gross.spiff, 0), p.net_pay);

/** a − b of two amounts read back (exact, through the money module: no binary-float subtraction). */
export const difference = (a: number, b: number): number => Number(plain(minus(parse(String(a)), parse(String(b)))));
