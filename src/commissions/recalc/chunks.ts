/** Consecutive parts of at most `size` items: one statement each, within PostgreSQL's parameter limits. */
export function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
