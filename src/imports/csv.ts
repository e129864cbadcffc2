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
 * its header and record rows, a piece at a time, letting the event loop turn between pieces (a 32 MiB
 * file is about a second of parsing). Empty rows are skipped but keep their number; malformed CSV → 400
 * naming the row; more than 50,000 record rows → 413.
 */
export async function readCsv(text: string): Promise<CsvTable> {
  const parser = parse({ bom: true, trim: true, relax_column_count: true, skip_empty_lines: false });
  let failure: Error | undefined;
  parser.on("error", (err) => {
    failure = err;
  });
  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  let row = 0;
  // Writes are parsed at once (the parser is a synchronous transform): its records are read back before the next piece.
  const take = () => {
    for (let record: string[] | null = parser.read(); record !== null; record = parser.read()) {
      row++;
      const cells = record.map((c) => c.trim());
      if (header === undefined) header = cells;
      else if (cells.some((c) => c !== "")) {
        if (rows.length === MAX_ROWS) throw new AppError("payload_too_large", TOO_MANY_ROWS);
        rows.push({ row, cells });
      }
    }
  };
  try {
    for (const piece of pieces(text)) {
      parser.write(piece);
      take();
      if (failure) break;
      const turn = turnIfDue();
      if (turn) await turn;
    }
    if (!failure) parser.end();
    // The last record (no line break after it) and an unclosed quote come out of the parser's flush.
    while (!failure && !parser.readableEnded) {
      take();
      await new Promise((resolve) => {
        parser.once("readable", resolve).once("end", resolve).once("error", resolve);
      });
    }
    take();
  } finally {
    parser.destroy();
  }
  if (failure) {
    const message = failure.message.replace(/^Invalid Record Length: /, "");
    throw new AppError("bad_request", `The file is not valid CSV at row ${row + 1}: ${message}`);
  }
  if (header === undefined || header.every((c) => c === "")) {
    throw validationError("body", "is empty: the file needs a header row naming its columns, then a row per record");
  }
  return { header, rows };
}

/** The text in pieces of about FEED_CHARS, never cut between the halves of a surrogate pair (each is encoded on its own). */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + FEED_CHARS, text.length);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    yield text.slice(start, end);
    start = end;
  }
}
