import { aliasesOf, fieldLabel, fieldsOf, type ImportField, type ImportResource, RESOURCE_WORDS } from "./fields";

// Which field each column of a file goes to (API.md §19 `?map=csv_col:field,…`, `csv_col:-` skips):
// guessed from the header, the person's own choices remembered per resource taking precedence.

export const SKIP = "-";
export type Choice = ImportField | typeof SKIP;

/** "Close Date" → "closedate": case, spaces, underscores and punctuation do not tell headers apart. */
export const squash = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** At most one letter added, dropped or changed ("clsoe_date" is two: not close). */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  return a.length - i - j <= 1 && b.length - i - j <= 1;
}

/** How closely a header names a field: 0 exactly, 1 but for case and punctuation, 2 a known alias, 3 a typo. */
function closeness(resource: ImportResource, header: string, field: ImportField): number | undefined {
  if (header === field) return 0;
  const name = squash(header);
  if (name === "") return undefined;
  if (name === squash(field)) return 1;
  if (aliasesOf(resource, field).includes(name)) return 2;
  if (name.length >= 5 && oneEditApart(name, squash(field))) return 3;
  return undefined;
}

/** Whether a choice is one this resource takes (a remembered one may come from an older version). */
export const isChoiceOf = (resource: ImportResource, choice: unknown): choice is Choice =>
  choice === SKIP || fieldsOf(resource).includes(choice as ImportField);

/**
 * A choice per column: what the person chose for a header of that name before, else the closest field
 * (exact, then case and punctuation, then an alias, then one typo), each field to one column at most
 * (the earlier column wins a tie); a column nothing matches is skipped.
 */
export function guessMapping(
  resource: ImportResource,
  headers: readonly string[],
  remembered: Readonly<Record<string, unknown>> = {},
): Choice[] {
  const candidates: { column: number; choice: Choice; rank: number }[] = [];
  headers.forEach((header, column) => {
    const before = Object.hasOwn(remembered, header) ? remembered[header] : undefined;
    if (isChoiceOf(resource, before)) candidates.push({ column, choice: before, rank: -1 });
    for (const field of fieldsOf(resource)) {
      const rank = closeness(resource, header, field);
      if (rank !== undefined) candidates.push({ column, choice: field, rank });
    }
  });
  candidates.sort((a, b) => a.rank - b.rank || a.column - b.column);
  const choices: (Choice | undefined)[] = headers.map(() => undefined);
  const taken = new Set<Choice>();
  for (const { column, choice } of candidates) {
    if (choices[column] !== undefined || taken.has(choice)) continue;
    choices[column] = choice;
    if (choice !== SKIP) taken.add(choice);
  }
  return choices.map((choice) => choice ?? SKIP);
}

/**
 * `?map=` for the choices: only the columns not named as their field ("Amount:arr_amount,Notes:-"),
 * each header once (the server maps by name: columns of one name are skipped together), or none.
 */
export function mappingQuery(headers: readonly string[], choices: readonly Choice[]): string | undefined {
  const renames = new Map<string, Choice>();
  headers.forEach((header, i) => {
    const choice = choices[i] ?? SKIP;
    if (choice !== header && !renames.has(header)) renames.set(header, choice);
  });
  return renames.size > 0 ? [...renames].map(([header, choice]) => `${header}:${choice}`).join(",") : undefined;
}

/** What keeps a mapping from being sent, in words; none when it can be. */
export function mappingProblems(
  resource: ImportResource,
  headers: readonly string[],
  choices: readonly Choice[],
): string[] {
  const problems: string[] = [];
  const columns = new Map<string, number[]>();
  headers.forEach((header, i) => {
    columns.set(header, [...(columns.get(header) ?? []), i + 1]);
    if (header === "") {
      problems.push(`Column ${i + 1} has no name in the header row: give it one in the file, or remove the column.`);
    } else if (header.includes(",")) {
      problems.push(`Rename the column "${header}" in the file without a comma, so it can be matched.`);
    }
  });
  for (const [header, at] of columns) {
    // Columns are mapped by name: those sharing one can only be skipped together.
    if (header !== "" && at.length > 1 && at.some((column) => choices[column - 1] !== SKIP)) {
      const both = at.length === 2 ? "both" : "all";
      problems.push(
        `Columns ${listed(at.map(String))} are ${both} named "${header}": skip them, or rename them in the file so each is different.`,
      );
    }
  }
  const chosen = new Map<Choice, string[]>();
  headers.forEach((header, i) => {
    const choice = choices[i] ?? SKIP;
    if (choice !== SKIP) chosen.set(choice, [...(chosen.get(choice) ?? []), header]);
  });
  for (const [field, from] of chosen) {
    if (from.length > 1) {
      const label = fieldLabel(resource, field) ?? field;
      problems.push(
        `${label} is chosen for ${from.length} columns (${listed(from.map((h) => `"${h}"`))}): keep it for one and skip the others.`,
      );
    }
  }
  const [one] = RESOURCE_WORDS[resource];
  if (resource === "deals" && !chosen.has("external_id")) {
    problems.push(`Choose the column that holds each ${one}'s External ID: deals are matched by it.`);
  }
  if (resource === "users" && !chosen.has("external_id") && !chosen.has("email")) {
    problems.push(`Choose the column that holds each ${one}'s External ID or Email: people are matched by them.`);
  }
  return problems;
}

/** "1, 2 and 3". */
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
