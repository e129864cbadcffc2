import { createHash } from "node:crypto";
import { audit } from "../audit/record.js";
import type { Ctx, Tx } from "../context.js";
import { AppError, type ErrorDetail } from "../errors.js";
import { newId } from "../ids.js";
import { type ImportAction, type ImportResult, MAX_DETAILS, type RowError } from "./schema.js";

/** What the import does with one record row, or its problems. */
export interface RowOutcome {
  row: number;
  externalId: string | null;
  action: ImportAction;
  errors: RowError[];
}

export function countsOf(outcomes: RowOutcome[]) {
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  for (const o of outcomes) {
    if (o.action === "create") created++;
    else if (o.action === "update") updated++;
    else if (o.action === "unchanged") unchanged++;
  }
  return { created, updated, unchanged };
}

/** A dry run's answer (API.md §19): the counts, every row's problems and every row's action. */
export function dryRunResult(outcomes: RowOutcome[]): ImportResult {
  return {
    ...countsOf(outcomes),
    errors: outcomes.flatMap((o) => o.errors),
    rows: outcomes.map((o) => ({ row: o.row, external_id: o.externalId, action: o.action })),
  };
}

/** A real import with problems → 422 naming each (`rows[4].arr_amount`), at most MAX_DETAILS then one counting the rest. */
export function throwIfRowErrors(outcomes: RowOutcome[]): void {
  const errors = outcomes.flatMap((o) => o.errors);
  if (errors.length === 0) return;
  const details: ErrorDetail[] = errors.slice(0, MAX_DETAILS).map((e) => ({
    param: e.field === null ? `rows[${e.row}]` : `rows[${e.row}].${e.field}`,
    row: e.row,
    field: e.field,
    message: e.message,
  }));
  const rest = errors.length - details.length;
  if (rest > 0) details.push({ param: "rows", message: `and ${rest} more problem${rest === 1 ? "" : "s"} not listed` });
  const rows = new Set(errors.map((e) => e.row)).size;
  const first = details
    .slice(0, 3)
    .map((d) => `${d.param} ${d.message}`)
    .join("; ");
  throw new AppError(
    "validation_error",
    `Nothing was imported: ${errors.length} problem${errors.length === 1 ? "" : "s"} in ${rows} row${rows === 1 ? "" : "s"} (${first}${errors.length > 3 ? "; …" : ""})`,
    details,
  );
}

/** The file's SHA-256: its text is the file's bytes decoded as UTF-8 with any BOM kept, so this is the bytes'. */
export function sha256Of(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The one audit row of an import (API.md §19), besides each record's own rows. */
export function auditImport(
  tx: Tx,
  ctx: Ctx,
  what: "deals" | "users",
  file: { text: string; rows: number },
  result: Pick<ImportResult, "created" | "updated" | "unchanged">,
): Promise<void> {
  const id = newId("imp", ctx.now.getTime());
  return audit(tx, ctx, {
    action: `import.${what}`,
    resource: "import",
    resourceId: id,
    after: {
      id,
      resource: what,
      file_sha256: sha256Of(file.text),
      file_bytes: Buffer.byteLength(file.text, "utf8"),
      rows: file.rows,
      created: result.created,
      updated: result.updated,
      unchanged: result.unchanged,
    },
  });
}
