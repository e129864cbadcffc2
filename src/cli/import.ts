import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { AppError } from "../errors.js";
import type { ImportResult } from "../imports/index.js";
import { UsageError } from "./errors.js";
import { runOwner } from "./owner.js";
import { withProgress } from "./progress.js";

/** A 50,000-row import runs for tens of seconds; the owner socket's usual 30 s would cut it off. */
const IMPORT_TIMEOUT_MS = 30 * 60_000;
/** Up to this many rows the dry run lists every row; past it, the rows with problems only. */
const LIST_EVERY_ROW = 100;

type Row = { row: number; externalId: string; action: string; problem: string };

function table(rows: Row[]): string {
  const cells = [
    ["ROW", "EXTERNAL_ID", "ACTION", "PROBLEM"],
    ...rows.map((r) => [String(r.row), r.externalId, r.action, r.problem]),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  return cells
    .map((c) =>
      c
        .map((cell, i) => (i < c.length - 1 ? cell.padEnd(widths[i]!) : cell))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** One line per row, and one more per extra problem of a row; a long file lists only the rows with problems. */
function dryRunTable(result: ImportResult): string {
  const problems = new Map<number, ImportResult["errors"]>();
  for (const e of result.errors) problems.set(e.row, [...(problems.get(e.row) ?? []), e]);
  const rows = result.rows ?? [];
  const listed = rows.length <= LIST_EVERY_ROW ? rows : rows.filter((r) => r.action === "error");
  const lines = listed.flatMap((r) => {
    const said = (problems.get(r.row) ?? []).map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
    return (said.length > 0 ? said : [""]).map((problem) => ({
      row: r.row,
      externalId: r.external_id ?? "-",
      action: r.action,
      problem,
    }));
  });
  const hidden = rows.length - listed.length;
  return `${table(lines)}${hidden > 0 ? `\n(${hidden} rows without problems not listed; --json lists every row)` : ""}`;
}

const counts = (r: ImportResult, verbs: [string, string, string]) =>
  `${r.created} ${verbs[0]}, ${r.updated} ${verbs[1]}, ${r.unchanged} ${verbs[2]}`;

function readFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

interface Options {
  dryRun?: boolean;
  map?: string;
  json?: boolean;
}

async function runImport(what: "deals" | "users", path: string, o: Options): Promise<void> {
  const { decodeCsvFile } = await import("../app/body-parsers.js");
  const text = decodeCsvFile(readFile(path));
  const args = { text, dry_run: !!o.dryRun, ...(o.map !== undefined && { map: o.map }) };
  const name = basename(path);
  let result: ImportResult;
  try {
    result = (await withProgress(`${o.dryRun ? "Checking" : "Importing"} ${name}`, () =>
      runOwner(`imports.${what}`, args, IMPORT_TIMEOUT_MS),
    )) as ImportResult;
  } catch (err) {
    // A refused import: each problem on its own line, then the sentence (or, with --json, the error body).
    if (!o.json && err instanceof AppError && err.details?.some((d) => d.row !== undefined)) {
      const where = (d: (typeof err.details)[number]) => (d.field ? `row ${d.row} ${d.field}` : `row ${d.row}`);
      const lines = err.details.map((d) => (d.row === undefined ? d.message : `${where(d)}: ${d.message}`));
      process.stderr.write(`${lines.join("\n")}\n`);
    }
    throw err;
  }
  const rowsWithProblems = new Set(result.errors.map((e) => e.row)).size;
  if (o.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (o.dryRun) {
    const summary = `Dry run of ${name}: ${counts(result, ["to create", "to update", "unchanged"])}, ${rowsWithProblems} with problems. Nothing was written.`;
    process.stdout.write(`${dryRunTable(result)}\n\n${summary}\n`);
  } else {
    const job = result.recalculation_job_id ? ` Recalculation continues in job ${result.recalculation_job_id}.` : "";
    process.stdout.write(`Imported ${name}: ${counts(result, ["created", "updated", "unchanged"])}.${job}\n`);
  }
  if (rowsWithProblems > 0) {
    throw new AppError(
      "validation_error",
      `${rowsWithProblems} row${rowsWithProblems === 1 ? " has" : "s have"} problems; fix ${rowsWithProblems === 1 ? "it" : "them"} and run again`,
    );
  }
}

export function importCommand(program: Command): void {
  const group = program
    .command("import")
    .description("Import deals or users from a CSV file as the owner (API.md §19; with or without a running server)");

  for (const what of ["deals", "users"] as const) {
    group
      .command(`${what} <file>`)
      .description(
        `Import ${what} from a CSV file (UTF-8, a header row, at most 32 MiB and 50,000 rows), as POST /imports/${what} ` +
          "does: all or nothing. With --dry-run, list what each row would do and its problems, writing nothing. " +
          "Exits 1 when a row has a problem (a real import then writes nothing).",
      )
      .option("--dry-run", "check every row and print what the import would do; write nothing")
      .option("--map <pairs>", "rename columns: csv_col:field,… (csv_col:- skips a column)")
      .option("--json", "print the API's answer as one JSON line")
      .action((file: string, o: Options) => runImport(what, file, o));
  }
}
