import { decimal } from "../../lib/format";
import { countRows, firstRecords } from "./csv-text";

// A chosen file as the page needs it before anything is sent: its header, its first row (shown beside
// each column), how many rows it has; or why it cannot be imported as it is (API.md §19's limits).

export const MAX_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_ROWS = 50_000;

export interface ChosenFile {
  file: File;
  headers: string[];
  /** The first row's cells, by column (what "Amount" holds, to tell columns apart). */
  sample: string[];
  rows: number;
}

export type FileReading = { ok: true; chosen: ChosenFile } | { ok: false; problem: string };

/** Reads the file in the browser: nothing leaves it until the person checks the file. */
export async function readChosenFile(file: File): Promise<FileReading> {
  if (file.size > MAX_FILE_BYTES) {
    const mib = (file.size / (1024 * 1024)).toFixed(1);
    return {
      ok: false,
      problem: `${file.name} is ${mib} MiB; a file may have at most 32 MiB. Split it into smaller files.`,
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return {
      ok: false,
      problem: `${file.name} is not UTF-8 text. Save it from your spreadsheet as "CSV UTF-8" and choose it again.`,
    };
  }
  const [headers, sample = []] = firstRecords(text, 2);
  if (!headers || headers.every((header) => header === "")) {
    return {
      ok: false,
      problem: `${file.name} is empty: it needs a header row naming its columns, then a row per record.`,
    };
  }
  const rows = countRows(text);
  if (rows > MAX_ROWS) {
    return {
      ok: false,
      problem: `${file.name} has ${decimal(rows)} rows; an import takes at most ${decimal(MAX_ROWS)}. Split it into files of ${decimal(MAX_ROWS)} rows or fewer.`,
    };
  }
  if (rows === 0)
    return { ok: false, problem: `${file.name} has a header row and no rows under it: nothing to import.` };
  return { ok: true, chosen: { file, headers, sample, rows } };
}
