import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { type BulkItem, bulkUpsert, previewUpserts } from "../deals/index.js";
import { turnIfDue } from "../event-loop.js";
import { usersNamed } from "../users/index.js";
import { type Columns, cellOf, resolveColumns } from "./columns.js";
import { type CsvTable, readCsv } from "./csv.js";
import { checkErrors, readDealRow } from "./deal-rows.js";
import { auditImport, countsOf, dryRunResult, type RowOutcome, throwIfRowErrors } from "./report.js";
import { CHUNK_ROWS, DEAL_FIELDS, type DealField, type ImportQuery, type ImportResult } from "./schema.js";
import { emailsIn, isEmail, userCells } from "./user-cells.js";

type CsvFile = CsvTable & { columns: Columns<DealField> };

/** What the rows are checked against: the stored deals and users they name (locked with `lock`). */
async function loadPreview(tx: Tx, ctx: Ctx, file: CsvFile, lock: boolean) {
  const { rows, columns } = file;
  const userColumns = ["owner_id", "split_user_ids"] as const;
  const cells = rows.flatMap((r) => userColumns.map((f) => cellOf(columns, r.cells, f)));
  const emails = emailsIn(cells);
  const idsByEmail = new Map((await usersNamed(tx, { emails })).map((u) => [u.email.toLowerCase(), u.id]));
  const namedIds = new Set<string>(idsByEmail.values());
  for (const cell of cells) {
    for (const part of cell?.split(";") ?? []) if (part.trim() && !isEmail(part)) namedIds.add(part.trim());
  }
  const externalIds = [...new Set(rows.map((r) => cellOf(columns, r.cells, "external_id")).filter((x) => !!x))];
  const preview = await previewUpserts(tx, ctx, externalIds as string[], [...namedIds], { lock });
  return { preview, users: userCells(idsByEmail) };
}

/** Every row's outcome and, when no row has a problem, the items to write (created or changed deals only). */
async function checkRows(file: CsvFile, { preview, users }: Awaited<ReturnType<typeof loadPreview>>) {
  const { header, rows, columns } = file;
  const firstRow = new Map<string, number>();
  const outcomes: RowOutcome[] = [];
  const writes: BulkItem[] = [];
  for (const csvRow of rows) {
    const { row, externalId, item, errors } = readDealRow(csvRow, columns, preview.stored, users, header.length);
    if (externalId !== null) {
      const first = firstRow.get(externalId);
      if (first === undefined) firstRow.set(externalId, row);
      else {
        const message = `repeats row ${first} (${externalId}); each deal once per file`;
        errors.push({ row, field: "external_id", message });
      }
    }
    const check = item && errors.length === 0 ? preview.check(item) : undefined;
    if (check) errors.push(...checkErrors(row, check));
    const action = errors.length > 0 || !check ? "error" : check.action;
    outcomes.push({ row, externalId, action, errors });
    if (item && (action === "create" || action === "update")) writes.push(item);
    const turn = turnIfDue();
    if (turn) await turn;
  }
  return { outcomes, writes };
}

/**
 * POST /imports/deals (API.md §19): each row upserted by external_id as PUT /deals/by-external-id does.
 * A dry run answers every row's action and problems. A real import checks every row first under the bulk
 * upsert's locks, then writes the created and changed deals through the bulk upsert, 1,000 at a time,
 * all in one transaction (its rules, events, audit rows and recalculation), plus one audit row naming the file.
 */
export async function importDeals(ctx: Ctx, text: string, query: ImportQuery): Promise<ImportResult> {
  requireScope(ctx, "write");
  // Read before the transaction: parsing a large file must not hold the embedded database's one connection.
  const table = await readCsv(text);
  const file = { ...table, columns: resolveColumns(table.header, query.map, DEAL_FIELDS, ["external_id"]) };
  if (query.dry_run) {
    // Only the reads hold the database (the embedded one has one connection); the rows are checked after.
    const loaded = await withTransaction(ctx, (tx) => loadPreview(tx, ctx, file, false));
    return dryRunResult((await checkRows(file, loaded)).outcomes);
  }
  return withTransaction(ctx, async (tx) => {
    const { outcomes, writes } = await checkRows(file, await loadPreview(tx, ctx, file, true));
    throwIfRowErrors(outcomes);
    const inTx = { ...ctx, db: tx };
    let jobId: string | null = null;
    for (let i = 0; i < writes.length; i += CHUNK_ROWS) {
      const { meta } = await bulkUpsert(inTx, { deals: writes.slice(i, i + CHUNK_ROWS) });
      jobId = meta.recalculation_job_id ?? jobId;
    }
    const counts = countsOf(outcomes);
    await auditImport(tx, ctx, "deals", { text, rows: outcomes.length }, counts);
    return { ...counts, errors: [], recalculation_job_id: jobId };
  });
}
