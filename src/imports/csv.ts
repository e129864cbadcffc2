import { parse } from "csv-parse";
import { AppError, validationError } from "../errors.js";
import { turnIfDue } from "../event-loop.js";
import { MAX_ROWS } from "./schema.js";

/** One record row of the file: its number as a spreadsheet shows it (the header is row 1) and its cells, trimmed. */
export interface CsvRow {
  row: number;
  cells: string[];
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

const FEED_CHARS = 64 * 1024;

export const TOO_MANY_ROWS = `The file has more than ${MAX_ROWS.toLocaleString("en-US")} rows: split it into files of at most ${MAX_ROWS.toLocaleString("en-US")} rows (and 32 MiB) each`;

/**
 * Reads the file (RFC 4180 by csv-parse: quoted commas, quotes and line breaks, CRLF or LF, a BOM) into
 * its header and record rows, letting the event loop turn as it goes (a 32 MiB file is ~0.3 s of
 * parsing). Empty rows are skipped but keep their number; malformed CSV → 400 naming the row; more
 * than 50,000 record rows → 413.
 */
export async function readCsv(text: string): Promise<CsvTable> {
  const parser = parse({ bom: true, trim: true, relax_column_count: true, skip_empty_lines: false });
  const feeding = feed(parser, text);
  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      const cells = record.map((c) => c.trim());
      if (header === undefined) header = cells;
      else if (cells.some((c) => c !== "")) {
        if (rows.length === MAX_ROWS) throw new AppError("payload_too_large", TOO_MANY_ROWS);
        rows.push({ row, cells });
      }
      const turn = turnIfDue();
      if (turn) await turn;
    }
  } catch (err) {
    parser.destroy();
    if (err instanceof AppError) throw err;
    const message = (err as Error).message.replace(/^Invalid Record Length: /, "");
    // The parser's own count: records it parsed may not have reached this loop yet.
    const at = Math.max(row, parser.info.records) + 1;
    throw new AppError("bad_request", `The file is not valid CSV at row ${at}: ${message}`);
  } finally {
    await feeding;
  }
  if (header === undefined || header.every((c) => c === "")) {
    throw validationError("body", "is empty: the file needs a header row naming its columns, then a row per record");
  }
  return { header, rows };
}

/** Writes the text into the parser a piece at a time, waiting when it is full; stops when it is destroyed. */
async function feed(parser: ReturnType<typeof parse>, text: string): Promise<void> {
  let start = 0;
  while (start < text.length && !parser.destroyed) {
    let end = Math.min(start + FEED_CHARS, text.length);
    // Never between the halves of a surrogate pair (each piece is encoded to UTF-8 on its own).
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    const piece = text.slice(start, end);
    start = end;
    if (!parser.write(piece)) {
      await new Promise((resolve) => {
        parser.once("drain", resolve);
        parser.once("close", resolve);
      });
    }
  }
  if (!parser.destroyed) parser.end();
}
