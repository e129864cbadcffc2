import { z } from "zod";
import { Timestamp } from "../http/date-fields.js";
import { ENUM_LIST } from "../http/input-fields.js";

/**
 * What the document says of schemas beyond what zod writes: bounds that only mean "safe integer"
 * dropped, a line's explanation discriminated by kind, and the schemas every list or record repeats
 * (`PageMeta`, `Timestamp`) shared by reference.
 */

type Json = Record<string, unknown>;
type Response = { content?: Record<string, Json> };

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * zod writes `.int()` as bounds of ±(2^53 − 1), which no contract states and which example generators
 * pick as sample values (`page: -9007199254740991`): a bound that only says "safe integer" is dropped.
 */
export function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) dropSafeIntegerBounds(item);
  else if (node && typeof node === "object") {
    const schema = node as Json;
    if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
    if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
    for (const value of Object.values(schema)) dropSafeIntegerBounds(value);
  }
}

const LINE_KINDS = {
  plan: "PlanExplanation",
  spiff: "SpiffExplanation",
  override: "OverrideExplanation",
  adjustment: "AdjustmentExplanation",
  clawback: "ClawbackExplanation",
};

/**
 * A commission line's explanation follows its kind. The zod schema (which the serializer and MCP use)
 * can only say "one of three"; the document says which, as a union discriminated by `kind`, so that
 * generated clients narrow `line.explanation` to `.bands` once they test `line.kind === "plan"`.
 */
export function discriminateLineKinds(schemas: Record<string, Json>, name: string): void {
  const line = schemas[name];
  const properties = line?.properties as Record<string, Json> | undefined;
  if (!line || !properties?.kind || !properties.explanation) return;
  const { kind: _kind, explanation: _explanation, ...rest } = properties;
  const { additionalProperties: _closed, ...open } = line;
  schemas[`${name}Base`] = {
    ...open,
    properties: rest,
    required: (line.required as string[]).filter((key) => key !== "kind" && key !== "explanation"),
  };
  const variants = Object.entries(LINE_KINDS).map(([kind, explanation]) => {
    const variant = `${kind[0]!.toUpperCase()}${kind.slice(1)}${name}`;
    schemas[variant] = {
      allOf: [
        ref("schemas", `${name}Base`),
        {
          type: "object",
          required: ["kind", "explanation"],
          properties: { kind: { type: "string", const: kind }, explanation: ref("schemas", explanation) },
        },
      ],
    };
    return [kind, `#/components/schemas/${variant}`] as const;
  });
  schemas[name] = {
    description: line.description,
    oneOf: variants.map(([, target]) => ({ $ref: target })),
    discriminator: { propertyName: "kind", mapping: Object.fromEntries(variants) },
  };
}

/** Every list's `meta` is the same object: one `PageMeta` schema, referenced, instead of a copy per list. */
export function sharePageMeta(paths: Record<string, Record<string, Json>>, schemas: Record<string, Json>): void {
  let shared: string | undefined;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const ok = (operation.responses as Record<string, Response> | undefined)?.["200"];
      const body = ok?.content?.["application/json"]?.schema as { properties?: Record<string, Json> } | undefined;
      const meta = body?.properties?.meta;
      if (!meta || !body?.properties?.data || "$ref" in meta) continue;
      const text = JSON.stringify(meta);
      shared ??= text;
      if (text !== shared) continue;
      schemas.PageMeta ??= meta;
      body.properties.meta = ref("schemas", "PageMeta");
    }
  }
}

const { $schema: _timestampDialect, ...timestamp } = z.toJSONSchema(Timestamp, { target: "draft-2020-12" }) as Json;
/** The `Timestamp` component: the JSON Schema of http/date-fields' Timestamp. */
export const TIMESTAMP: Json = timestamp;
const TIMESTAMP_TEXT = JSON.stringify(Object.entries(TIMESTAMP).sort());

/** Every response timestamp is the same schema: one `Timestamp`, referenced (about 70 copies otherwise). */
export function shareTimestamps(node: unknown): void {
  if (!node || typeof node !== "object") return;
  const entries = Array.isArray(node) ? node.entries() : Object.entries(node as Json);
  for (const [key, value] of entries) {
    if (value && typeof value === "object" && JSON.stringify(Object.entries(value).sort()) === TIMESTAMP_TEXT) {
      (node as Record<string | number, unknown>)[key] = ref("schemas", "Timestamp");
    } else shareTimestamps(value);
  }
}

/**
 * A query parameter of http/input-fields' `commaList`: an array of the enum's values written
 * comma-separated (`style: form, explode: false`), so generated clients type each value as the enum.
 */
export function enumListParameter(parameter: Json): Json {
  const { schema, ...rest } = parameter;
  const values = (schema as Json)[ENUM_LIST] as string[];
  return {
    ...rest,
    style: "form",
    explode: false,
    schema: { type: "array", items: { type: "string", enum: values }, minItems: 1 },
  };
}
