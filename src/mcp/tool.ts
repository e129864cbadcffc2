import { z } from "zod";
import type { Ctx, Scope } from "../context.js";
import { IdParams, QueryBoolean } from "../http/input-fields.js";

/** All four MCP hints, always explicit. Nothing here reaches outside this service, hence `false` only. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** The last sentence of every read tool's description. */
export const READ_ONLY = "Read-only: it never changes anything.";

/** Reads change nothing and may be repeated freely. */
export const READS: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Each create adds a record: additive, and a retry adds another. */
export const CREATES: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Updates overwrite fields; repeating the same update changes nothing more. */
export const UPDATES: Annotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** One-way workflow transitions: additive (nothing is lost), and a repeat is refused, changing nothing. */
export const TRANSITIONS: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export interface ToolDef<I extends z.ZodObject, O extends z.ZodObject> {
  /** snake_case verb, API.md §9. */
  name: string;
  title: string;
  /** What the tool does and what it never does. */
  description: string;
  /** The API scope the key needs (the same one the REST route and the service require). */
  scope: Scope;
  /** The `mcp_access` level the owner must have granted this key (`cts keys mcp-access`). */
  access: Scope;
  /** The REST route's own zod schema(s); list tools take its query schema, page and per_page included. */
  input: I;
  /** The REST response schema: structuredContent equals the REST body. */
  output: O;
  annotations: Annotations;
  /** Calls the same service function as the REST route. */
  run(ctx: Ctx, args: z.output<I>): Promise<z.input<O>>;
}

export type McpTool = ToolDef<z.ZodObject, z.ZodObject>;

/** Keeps each row's input and run() in step at compile time, then erases them for the table. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): McpTool {
  return { ...def, input: asArguments(def.input) } as unknown as McpTool;
}

/** A query-string boolean as a tool argument: a JSON boolean, or REST's words "true" and "false". */
const ArgumentBoolean = z.union([z.boolean(), QueryBoolean]);

/** A REST schema as tool arguments: JSON arguments are typed, so where REST takes "true"/"false" so does a boolean. */
function asArguments<I extends z.ZodObject>(input: I): I {
  const booleans: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    if (field === QueryBoolean) booleans[key] = ArgumentBoolean;
    if (field instanceof z.ZodOptional && field.unwrap() === QueryBoolean) booleans[key] = ArgumentBoolean.optional();
  }
  return Object.keys(booleans).length === 0 ? input : (input.safeExtend(booleans) as unknown as I);
}

/** A record named by `id` plus a REST body, as one argument object (`update_user {id, name}`). */
export function withId<S extends z.ZodObject>(body: S) {
  return IdParams.extend(body.shape as S["shape"]);
}
