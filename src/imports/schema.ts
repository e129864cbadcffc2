import { z } from "zod";
import { RecalculationJobId } from "../commissions/index.js";
import { QueryBoolean } from "../http/input-fields.js";

/** API.md §19: what a file may hold. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_ROWS = 50_000;
export const FILE_TOO_LARGE = `The file is larger than 32 MiB: split it into files of at most 32 MiB and ${MAX_ROWS.toLocaleString("en-US")} rows each`;

/** Rows written per step of a real import (all steps in one transaction). */
export const CHUNK_ROWS = 1000;
/** Problems listed in a 422's details; one more detail counts the rest. */
export const MAX_DETAILS = 1000;

export const DEAL_FIELDS = [
  "external_id",
  "opportunity_name",
  "arr_amount",
  "currency",
  "deal_type",
  "close_date",
  "owner_id",
  "contract_start",
  "contract_end",
  "split_user_ids",
  "split_percents",
] as const;
export type DealField = (typeof DEAL_FIELDS)[number];

export const USER_FIELDS = [
  "external_id",
  "name",
  "email",
  "role",
  "manager_id",
  "manager_effective_from",
  "active",
  "payroll_id",
] as const;
export type UserField = (typeof USER_FIELDS)[number];

export const ImportQuery = z
  .strictObject({
    dry_run: QueryBoolean.default(false).describe(
      "true: check every row and answer what the import would do, writing nothing (`rows` lists each row).",
    ),
    map: z
      .string()
      .min(1)
      .max(10_000)
      .optional()
      .describe(
        "Renames columns: `csv_col:field,…` (the file's header on the left, a field on the right); `csv_col:-` " +
          "skips a column. Columns not named keep their header as the field name.",
      ),
  })
  .describe("API.md §19.");
export type ImportQuery = z.infer<typeof ImportQuery>;

/** The request body: the file as text (the text/csv parser has checked it is UTF-8). */
export const CsvFile = z
  .string()
  .describe(
    "The file: RFC 4180 CSV in UTF-8 (a byte order mark is ignored), a header row first; quoted cells may hold " +
      "commas, quotes and line breaks; CRLF or LF. At most 32 MiB and 50,000 rows (413 beyond: split the file).",
  );

export const ImportAction = z.enum(["create", "update", "unchanged", "error"]);
export type ImportAction = z.infer<typeof ImportAction>;

export const RowError = z
  .object({
    row: z.int().describe("The row as a spreadsheet numbers it: the header is row 1, the first record row 2."),
    field: z.string().nullable().describe("The field (after ?map) the problem is in; null for the whole row."),
    message: z.string(),
  })
  .meta({ id: "ImportRowError" });
export type RowError = z.infer<typeof RowError>;

export const ImportRow = z
  .object({
    row: z.int(),
    external_id: z.string().nullable().describe("The row's external_id (null when the row has none)."),
    action: ImportAction,
  })
  .meta({ id: "ImportRow" });
export type ImportRow = z.infer<typeof ImportRow>;

export const ImportResult = z
  .object({
    created: z.int().describe("Rows that create a record (a dry run: would create)."),
    updated: z.int().describe("Rows that change a stored record."),
    unchanged: z.int().describe("Rows equal to the stored record (nothing written for them)."),
    errors: z
      .array(RowError)
      .describe("Every row's problems (a dry run); always empty after a real import, which answers 422 instead."),
    rows: z
      .array(ImportRow)
      .optional()
      .describe("A dry run only: each record row in file order and what the import would do with it."),
    recalculation_job_id: RecalculationJobId.optional().describe(
      "A real deals import only: the last recalculation job the import queued (each step of 1,000 deals whose " +
        "recalculation passed the inline limit queues one; GET /jobs lists them); null when all finished inline.",
    ),
  })
  .meta({ id: "ImportResult" });
export type ImportResult = z.infer<typeof ImportResult>;
