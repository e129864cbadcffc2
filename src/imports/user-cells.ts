/**
 * A file's cells naming users (API.md §19): a `usr_…` id, or an email (any case) of a stored user or,
 * in a users import, of a row of the same file. Ids are taken as written; whether they exist is the
 * services' own check.
 */
export interface UserCells {
  /** The user id a cell names; undefined for an email no user has. */
  idOf(cell: string): string | undefined;
  unknownMessage(cell: string): string;
}

export const isEmail = (cell: string) => cell.includes("@");

export function userCells(idsByEmail: Map<string, string>): UserCells {
  return {
    idOf: (cell) => (isEmail(cell) ? idsByEmail.get(cell.toLowerCase()) : cell),
    unknownMessage: (cell) => `no user has the email ${cell}`,
  };
}

/** The emails among a file's user cells (split lists cut at `;`), lowercased, once each. */
export function emailsIn(cells: Iterable<string | undefined>): string[] {
  const emails = new Set<string>();
  for (const cell of cells) {
    if (!cell) continue;
    for (const part of cell.split(";")) {
      const value = part.trim();
      if (isEmail(value)) emails.add(value.toLowerCase());
    }
  }
  return [...emails];
}
