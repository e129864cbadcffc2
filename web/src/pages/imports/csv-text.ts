// What the page reads of a CSV file before sending it (API.md §19: RFC 4180, a header row, cells
// trimmed, a BOM tolerated): the header and first row for the column mapping, and how many rows follow.
// The server reads the whole file again; this only has to agree with it on those three things.

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Whitespace as String.prototype.trim drops it: a cell of only these is empty. */
const isBlank = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));

/**
 * The first `count` records of the text (fewer when it has fewer), each cell trimmed. The header is
 * the first record whatever it holds; after it, a record whose cells are all empty is skipped, as the
 * server skips it.
 */
export function firstRecords(text: string, count: number): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(cell.trim());
    if (records.length === 0 || record.some((c) => c !== "")) records.push(record);
    record = [];
    cell = "";
  };
  for (; i < text.length && records.length < count; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c !== QUOTE) cell += text[i];
      else if (text.charCodeAt(i + 1) === QUOTE) {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === QUOTE) quoted = true;
    else if (c === COMMA) {
      record.push(cell.trim());
      cell = "";
    } else if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      endRecord();
    } else cell += text[i];
  }
  if (records.length < count && (cell !== "" || record.length > 0)) endRecord();
  return records;
}

/** The file's header row: its column names as written, trimmed (empty when the file is). */
export const headerOf = (text: string): string[] => firstRecords(text, 1)[0] ?? [];

/**
 * How many records follow the header, those whose cells are all empty not counted (line breaks
 * outside quotes end a record). One pass over character codes: a 32 MiB file in well under a second.
 */
export function countRows(text: string): number {
  let rows = 0;
  let header = true;
  let quoted = false;
  let content = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c !== QUOTE) content ||= !isBlank(c);
      else if (text.charCodeAt(i + 1) === QUOTE) {
        content = true;
        i++;
      } else quoted = false;
    } else if (c === QUOTE) quoted = true;
    else if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      if (content && !header) rows++;
      header = false;
      content = false;
    } else if (c !== COMMA) content ||= !isBlank(c);
  }
  if (content && !header) rows++;
  return rows;
}

/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export const csvLine = (cells: readonly string[]): string => cells.map(csvCell).join(",");
