import { MAY } from "../access/index.js";
import { CSV_BOM, csvTextField } from "../commissions/index.js";
import { type Ctx, requireScope } from "../context.js";
import { offsetOf } from "../http/pagination.js";
import { type Fixed, minus, moneyNumber, moneyText, parse, plus, sign, ZERO } from "../money/index.js";
import * as repo from "./journal-repository.js";
import { type PostingRow, readSettings } from "./repository.js";
import { lastDayOf, monthIndex } from "./schedule.js";
import {
  ACCOUNT_KEYS,
  type AccountKey,
  type JournalFilter,
  type JournalPage,
  type JournalQuery,
  type JournalRow,
} from "./schema.js";
import { settingsValues } from "./settings.js";

// The journal of API.md §17: each posting a debit row and a credit row (a negative amount swaps the sides).

const negate = (a: Fixed): Fixed => minus(ZERO, a);

type PostingType = PostingRow["type"];
const SIDES: Record<PostingType, [debit: AccountKey, credit: AccountKey]> = {
  addition: ["deferred_commissions", "commissions_payable"],
  adjustment: ["deferred_commissions", "commissions_payable"],
  expense: ["commission_expense", "commissions_payable"],
  amortization: ["commission_expense", "deferred_commissions"],
  impairment: ["commission_expense", "deferred_commissions"],
  clawback: ["clawback_receivable", "deferred_commissions"],
  clawback_excess: ["clawback_receivable", "commission_expense"],
};
const MEMO: Record<PostingType, string> = {
  addition: "Commission capitalized",
  adjustment: "Adjustment to the capitalized commission",
  expense: "Commission expensed",
  amortization: "Amortization",
  impairment: "Impairment: deal cancelled",
  clawback: "Clawback of the capitalized commission",
  clawback_excess: "Clawback beyond the asset, against expense",
};

type Accounts = Record<AccountKey, string>;

async function accountsOf(ctx: Ctx): Promise<Accounts> {
  return settingsValues((await readSettings(ctx.db)).settings).accounts;
}

/** A journal row before it is written: the amount exact, on one side. */
interface Entry {
  date: string;
  account: string;
  side: "debit" | "credit";
  amount: Fixed;
  memo: string;
  deal_id: string | null;
  line_id: string | null;
  currency: string;
}

function entriesOf(p: repo.MonthPosting, month: string, accounts: Accounts): [Entry, Entry] {
  const amount = parse(p.amount);
  const [debit, credit] = sign(amount) < 0 ? [...SIDES[p.type]].reverse() : SIDES[p.type];
  const value = sign(amount) < 0 ? negate(amount) : amount;
  const date = p.booked_on ?? lastDayOf(month);
  const what = p.type === "amortization" ? `${MEMO[p.type]} ${month}` : MEMO[p.type];
  const memo = `${what}: ${p.kind} line ${p.line_id} of deal ${p.deal_id}`;
  const base = { date, memo, amount: value, deal_id: p.deal_id, line_id: p.line_id, currency: p.currency };
  return [
    { ...base, account: accounts[debit!], side: "debit" },
    { ...base, account: accounts[credit!], side: "credit" },
  ];
}

function toJson(e: Entry): JournalRow {
  const value = moneyNumber(e.amount, e.currency);
  return {
    date: e.date,
    account: e.account,
    debit: e.side === "debit" ? value : null,
    credit: e.side === "credit" ? value : null,
    memo: e.memo,
    deal_id: e.deal_id,
    line_id: e.line_id,
    currency: e.currency,
  };
}

/** A CSV line (RFC 4180; text cells guarded against formulas; the unused side empty). */
export function csvLine(e: Entry): string {
  const value = moneyText(e.amount, e.currency);
  return [
    e.date,
    csvTextField(e.account),
    e.side === "debit" ? value : "",
    e.side === "credit" ? value : "",
    csvTextField(e.memo),
    e.deal_id ?? "",
    e.line_id ?? "",
    e.currency,
  ].join(",");
}

type Sums = Awaited<ReturnType<typeof repo.monthSums>>;

/** Σ debits (= Σ credits) per currency of the month: every posting counts its absolute amount once. */
function totalsOf(sums: Sums) {
  const byCurrency = new Map<string, Fixed>();
  for (const s of sums) {
    const a = parse(s.amount);
    byCurrency.set(s.currency, plus(byCurrency.get(s.currency) ?? ZERO, sign(a) < 0 ? negate(a) : a));
  }
  return [...byCurrency].map(([currency, total]) => ({
    currency,
    debit: moneyNumber(total, currency),
    credit: moneyNumber(total, currency),
  }));
}

export async function listJournal(ctx: Ctx, query: JournalQuery): Promise<JournalPage> {
  requireScope(ctx, "read", MAY.accounting);
  const month = monthIndex(query.month);
  const accounts = await accountsOf(ctx);
  const sums = await repo.monthSums(ctx.db, month, query.currency);
  const totals = totalsOf(sums);
  // One currency (or none): its sums; several: null, as no total adds two currencies.
  const single = totals.length <= 1;
  const meta = {
    page: query.page,
    per_page: query.per_page,
    debit: single ? (totals[0]?.debit ?? 0) : null,
    credit: single ? (totals[0]?.credit ?? 0) : null,
    totals,
  };
  const { limit, offset } = offsetOf(query);
  if (query.summary) {
    const all = summaryEntries(sums, query.month, accounts);
    return { data: all.slice(offset, offset + limit).map(toJson), meta: { ...meta, total: all.length } };
  }
  // Two rows per posting: read the postings the page's rows come from.
  const postings = sums.reduce((n, s) => n + Number(s.n), 0);
  const first = Math.floor(offset / 2);
  const last = Math.floor((offset + limit - 1) / 2);
  const page = await repo.postingsOfMonth(ctx.db, month, query.currency, { offset: first, limit: last - first + 1 });
  const rows = page.flatMap((p) => entriesOf(p, query.month, accounts));
  const skip = offset - first * 2;
  return { data: rows.slice(skip, skip + limit).map(toJson), meta: { ...meta, total: postings * 2 } };
}

/** Per account and currency: Σ debits and Σ credits of the month, each a row of its own side. */
function summaryEntries(sums: Sums, month: string, accounts: Accounts): Entry[] {
  const cells = new Map<string, { currency: string; account: AccountKey; debit: Fixed; credit: Fixed }>();
  const add = (currency: string, account: AccountKey, side: "debit" | "credit", a: Fixed) => {
    const key = `${currency}\u0000${account}`;
    const cell = cells.get(key) ?? { currency, account, debit: ZERO, credit: ZERO };
    cell[side] = plus(cell[side], a);
    cells.set(key, cell);
  };
  for (const s of sums) {
    const a = parse(s.amount);
    const [debit, credit] = sign(a) < 0 ? [...SIDES[s.type]].reverse() : SIDES[s.type];
    const value = sign(a) < 0 ? negate(a) : a;
    add(s.currency, debit!, "debit", value);
    add(s.currency, credit!, "credit", value);
  }
  const order = (k: AccountKey) => ACCOUNT_KEYS.indexOf(k);
  const sorted = [...cells.values()].sort((x, y) =>
    x.currency === y.currency ? order(x.account) - order(y.account) : x.currency < y.currency ? -1 : 1,
  );
  const date = lastDayOf(month);
  const memo = `Total for ${month}`;
  return sorted.flatMap((c) =>
    (["debit", "credit"] as const)
      .filter((side) => sign(c[side]) !== 0)
      .map((side) => ({
        date,
        account: accounts[c.account],
        side,
        amount: c[side],
        memo,
        deal_id: null,
        line_id: null,
        currency: c.currency,
      })),
  );
}

export const JOURNAL_CSV_HEADER = "date,account,debit,credit,memo,deal_id,line_id,currency";

/** Up to this many postings the CSV is sent as one text (with its ETag, compressed by size); beyond, streamed. */
const CSV_IN_ONE_PIECE = 5000;

/** The month's journal CSV: one text when small, else a stream that reads the postings in batches. */
export async function journalCsvBody(ctx: Ctx, filter: JournalFilter): Promise<string | AsyncGenerator<string>> {
  requireScope(ctx, "read", MAY.accounting);
  const postings = (await repo.monthSums(ctx.db, monthIndex(filter.month), filter.currency)).reduce(
    (n, s) => n + Number(s.n),
    0,
  );
  if (postings > CSV_IN_ONE_PIECE) return journalCsv(ctx, filter);
  let text = "";
  for await (const piece of journalCsv(ctx, filter)) text += piece;
  return text;
}

/** Every row of the month's journal (or its summary) as CSV text, read in batches of postings. */
async function* journalCsv(ctx: Ctx, filter: JournalFilter): AsyncGenerator<string> {
  requireScope(ctx, "read", MAY.accounting);
  const month = monthIndex(filter.month);
  const accounts = await accountsOf(ctx);
  yield `${CSV_BOM}${JOURNAL_CSV_HEADER}\r\n`;
  if (filter.summary) {
    const entries = summaryEntries(await repo.monthSums(ctx.db, month, filter.currency), filter.month, accounts);
    yield entries.map((e) => `${csvLine(e)}\r\n`).join("");
    return;
  }
  const BATCH = 2000;
  let after: { line_id: string; type: string } | null = null;
  for (;;) {
    const batch = await repo.postingsAfter(ctx.db, month, filter.currency, after, BATCH);
    yield batch.flatMap((p) => entriesOf(p, filter.month, accounts).map((e) => `${csvLine(e)}\r\n`)).join("");
    if (batch.length < BATCH) return;
    const last = batch.at(-1)!;
    after = { line_id: last.line_id, type: last.type };
  }
}
