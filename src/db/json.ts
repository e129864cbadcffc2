/** JSON text for jsonb: rows built around parts serialized once, and a key order a jsonb round trip keeps. */

/** JSON text of `fields` plus `key`, whose value is already JSON text (serialized once, reused). */
export function withRawJson(fields: object, key: string, rawJson: string): string {
  const json = JSON.stringify(fields);
  return `${json.slice(0, -1)}${json === "{}" ? "" : ","}${JSON.stringify(key)}:${rawJson}}`;
}

export function jsonArray(itemsJson: string[]): string {
  return `[${itemsJson.join(",")}]`;
}

/** Key-sorted JSON, so a jsonb round trip (which reorders keys) compares equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
