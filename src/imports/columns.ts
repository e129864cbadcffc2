import { AppError, type ErrorDetail } from "../errors.js";

/** Which cell of a row holds which field (after ?map), for the fields the file has. */
export type Columns<F extends string> = Map<F, number>;

/** `csv_col:field,…` → the file's header name → a field, or "-" to skip it; a malformed pair → 422 naming map. */
function parseMap(map: string | undefined): Map<string, string> {
  const renames = new Map<string, string>();
  if (map === undefined) return renames;
  for (const pair of map.split(",")) {
    const at = pair.lastIndexOf(":");
    const column = pair.slice(0, at).trim();
    const field = pair.slice(at + 1).trim();
    if (at < 0 || column === "" || field === "") {
      throw invalid([{ param: "map", message: `"${pair}" is not csv_col:field (or csv_col:- to skip the column)` }]);
    }
    if (renames.has(column)) throw invalid([{ param: "map", message: `names column "${column}" twice` }]);
    renames.set(column, field);
  }
  return renames;
}

function invalid(details: ErrorDetail[]): AppError {
  return new AppError(
    "validation_error",
    `Invalid columns: ${details.map((d) => `${d.param} ${d.message}`).join("; ")}`,
    details,
  );
}

/**
 * The file's columns as fields (API.md §19): each header cell is a field name unless ?map renames it
 * (`csv_col:-` skips it). An unknown or repeated column, an unnamed one, or a map naming a column the
 * file lacks → 422 naming each.
 */
export function resolveColumns<F extends string>(
  header: string[],
  map: string | undefined,
  fields: readonly F[],
  required: readonly F[],
): Columns<F> {
  const renames = parseMap(map);
  const problems: ErrorDetail[] = [];
  const columns: Columns<F> = new Map();
  const known = new Set<string>(fields);
  const list = fields.join(", ");
  for (const column of renames.keys()) {
    if (!header.includes(column))
      problems.push({ param: "map", message: `names column "${column}", which the file lacks` });
  }
  for (const [column, target] of renames) {
    if (target !== "-" && !known.has(target)) {
      problems.push({
        param: "map",
        message: `maps "${column}" to ${target}, which is not a field (${list}; or - to skip)`,
      });
    }
  }
  header.forEach((name, index) => {
    const field = renames.get(name) ?? name;
    const at = `column ${index + 1}`;
    // A rename to an unknown field is the map's problem, named above.
    if (field === "-" || (renames.has(name) && !known.has(field))) return;
    if (name === "") {
      problems.push({ param: "header", message: `${at} has no name: name it, or remove the column` });
    } else if (!known.has(field)) {
      problems.push({
        param: "header",
        message: `${at} "${name}" is not a field (${list}): rename it, map it with ?map=${name}:field, or skip it with ?map=${name}:-`,
      });
    } else if (columns.has(field as F)) {
      const first = columns.get(field as F)! + 1;
      problems.push({ param: "header", message: `${at} "${name}" repeats ${field} (column ${first})` });
    } else columns.set(field as F, index);
  });
  for (const field of required) {
    if (!columns.has(field) && !problems.some((p) => p.param === "map")) {
      problems.push({ param: "header", message: `has no ${field} column; every file needs one` });
    }
  }
  if (problems.length > 0) throw invalid(problems);
  return columns;
}

/** The cell of `field` in a row: undefined when the file has no such column, "" when the row's cell is empty or missing. */
export function cellOf<F extends string>(columns: Columns<F>, cells: string[], field: F): string | undefined {
  const index = columns.get(field);
  return index === undefined ? undefined : (cells[index] ?? "");
}
