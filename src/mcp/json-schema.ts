import { z } from "zod";

/** A JSON Schema node. */
export type JsonSchema = { [keyword: string]: unknown };

// The JSON Schemas tools/list shows, written once per tool from its zod schemas. Portable: every `type` is a
// single name (nullable is `anyOf` with a `null` branch), no `$ref`, and no schema that constrains nothing
// (`{}`), which some clients (Gemini's function declarations, the MCP Inspector's checks) refuse or flag.

/** Keywords that say something about the value; a node with none of them accepts any value. */
const CONSTRAINTS = new Set([
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "properties",
  "items",
  "required",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "multipleOf",
  "additionalProperties",
  "propertyNames",
  "$ref",
]);
/** Keywords that describe rather than constrain: they stay on top when a `type` list is split. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated", "readOnly"]);
/** Shaped one by one: they hold schemas. */
const SUBSCHEMAS = new Set(["properties", "items", "anyOf", "oneOf", "additionalProperties", "propertyNames"]);
const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];

export function constrains(node: JsonSchema): boolean {
  return Object.keys(node).some((keyword) => CONSTRAINTS.has(keyword));
}

const isNode = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

type Definitions = Record<string, JsonSchema>;

/** A zod object as plain JSON Schema: no dialect, no `definitions` (inlined), draft-07 and 2020-12 alike. */
function jsonSchemaOf(schema: z.ZodObject, io: "input" | "output"): { root: JsonSchema; definitions: Definitions } {
  // An untagged copy keeps the root an object; nested ids become `definitions`, inlined by the callers.
  const json = z.toJSONSchema(schema.extend({}), { target: "draft-7", io, unrepresentable: "any" }) as JsonSchema;
  const { $schema: _dialect, definitions = {}, ...root } = json;
  return { root, definitions: definitions as Definitions };
}

/** A tool's arguments, in full (descriptions, bounds, enums): what a model reads to call it. */
export function inputSchema(schema: z.ZodObject): JsonSchema {
  const { root, definitions } = jsonSchemaOf(schema, "input");
  return shape(root, definitions) ?? { type: "object" };
}

/**
 * A tool's result, trimmed to the fields the record always has (the item's, for a list): enough to read
 * structuredContent by name. The full shape, which every tool returning a deal repeated, made an admin's
 * tools/list 161 KB; types and nesting are in the REST reference (/docs). Unknown fields are allowed:
 * clients ignore them (API.md §10).
 */
export function outputSchema(schema: z.ZodObject): JsonSchema {
  const { root, definitions } = jsonSchemaOf(schema, "output");
  const properties = (root.properties ?? {}) as Record<string, JsonSchema>;
  const data = properties.data && resolve(properties.data, definitions);
  if (data && isNode(data.items) && properties.meta) {
    const items = fieldNames(data.items, definitions);
    return { type: "object", required: ["data", "meta"], properties: { data: { type: "array", items } } };
  }
  return fieldNames(root, definitions);
}

function fieldNames(node: JsonSchema, definitions: Definitions): JsonSchema {
  const { required = [] } = resolve(node, definitions) as { required?: string[] };
  return { type: "object", required };
}

/** One node, portable and without noise; undefined when it constrains nothing. */
function shape(input: JsonSchema, definitions: Definitions): JsonSchema | undefined {
  const node = resolve(input, definitions);
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (!SUBSCHEMAS.has(keyword) && !isSafeIntegerBound(keyword, value)) out[keyword] = value;
  }
  if (isNode(node.properties)) {
    const properties: JsonSchema = {};
    for (const [name, property] of Object.entries(node.properties)) {
      // An argument that may be any JSON value says so explicitly.
      properties[name] = shape(property as JsonSchema, definitions) ?? { anyOf: JSON_TYPES.map((type) => ({ type })) };
    }
    out.properties = properties;
  }
  for (const keyword of ["items", "additionalProperties", "propertyNames"] as const) {
    const sub = isNode(node[keyword]) ? shape(node[keyword] as JsonSchema, definitions) : undefined;
    if (sub) out[keyword] = sub;
  }
  if (node.additionalProperties === false) out.additionalProperties = false;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = node[keyword];
    if (!Array.isArray(branches)) continue;
    const shaped = branches.map((branch: JsonSchema) => shape(branch, definitions));
    // A branch that accepts anything makes the whole union accept anything.
    if (shaped.some((branch) => branch === undefined)) return undefined;
    out[keyword] = shaped;
  }
  if (Array.isArray(out.type)) return splitTypeList(out);
  return constrains(out) ? out : undefined;
}

function resolve(node: JsonSchema, definitions: Definitions): JsonSchema {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const target = definitions[ref.replace(/^#\/(definitions|\$defs)\//, "")];
  if (!target) throw new Error(`MCP tool schema: unresolved reference ${ref}`);
  const { $ref: _ref, ...siblings } = node;
  return { ...resolve(target, definitions), ...siblings };
}

/** zod writes ±(2^53 − 1) on every integer: noise for a JSON client. */
function isSafeIntegerBound(keyword: string, value: unknown): boolean {
  return (
    (keyword === "minimum" && value === -Number.MAX_SAFE_INTEGER) ||
    (keyword === "maximum" && value === Number.MAX_SAFE_INTEGER)
  );
}

/** `{type: ["string", "null"], …}` → `{anyOf: [{type: "string", …}, {type: "null"}]}`, annotations on top. */
function splitTypeList(node: JsonSchema): JsonSchema {
  const top: JsonSchema = {};
  const rest: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword !== "type") (ANNOTATIONS.has(keyword) ? top : rest)[keyword] = value;
  }
  const branches = (node.type as string[]).map((type) => (type === "null" ? { type } : { type, ...rest }));
  return branches.length === 1 ? { ...top, ...branches[0] } : { ...top, anyOf: branches };
}
