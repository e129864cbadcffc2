import { z } from "zod";
import { type Ctx, type Role, roleRefusal, rolesOfScope, type Scope, scopeAllows } from "../context.js";
import { AppError } from "../errors.js";

/**
 * A body field that needs more than its route's scope (API.md §20 (a): a write key may create reps and
 * edit names, but not make an admin). Stated once on the field's schema (`requires`), so the OpenAPI
 * document shows it as `x-requires`, the service enforces it (`requireFields`) and the table-driven test
 * walks it from the document: a new privileged field is documented, enforced and tested by itself.
 */
export interface FieldRequirement {
  scope: Scope;
  /** The roles of people who may write it (by default those of the scope). */
  roles: readonly Role[];
  /** Only these values need it (absent: any value). */
  values?: readonly (string | boolean)[];
  /** On an update, only for a record whose fields hold one of these values (`{ role: ["admin"] }`). */
  record?: Readonly<Record<string, readonly (string | boolean)[]>>;
}

const KEY = "x-requires";

/** The field's schema, marked as needing `scope` (or, for people, `roles`) under these conditions. */
export function requires<T extends z.ZodType>(
  schema: T,
  scope: Scope,
  when: Omit<FieldRequirement, "scope" | "roles"> = {},
): T {
  const requirement: FieldRequirement = { scope, roles: rolesOfScope(scope), ...when };
  return schema.meta({ [KEY]: requirement }) as T;
}

/** The requirement of a field's schema, looking through the optional/default wrappers `.partial()` adds. */
function requirementOf(schema: z.ZodType | undefined): FieldRequirement | undefined {
  for (let s = schema; s; s = (s._zod.def as { innerType?: z.ZodType }).innerType) {
    const found = z.globalRegistry.get(s)?.[KEY];
    if (found) return found as FieldRequirement;
  }
  return undefined;
}

const matches = (allowed: readonly unknown[] | undefined, value: unknown) => !allowed || allowed.includes(value);

/**
 * Refuses (403 naming the scope or role) a write that sets a privileged field of `body` the actor may
 * not set: on a create any value among its `values`; on an update (`record` given, locked) a change.
 */
export function requireFields(
  ctx: Ctx,
  body: z.ZodObject,
  input: Readonly<Record<string, unknown>>,
  record?: Readonly<Record<string, unknown>>,
): void {
  for (const [field, value] of Object.entries(input)) {
    const rule = requirementOf(body.shape[field] as z.ZodType | undefined);
    if (!rule || value === undefined || !matches(rule.values, value)) continue;
    if (record ? record[field] === value || !recordMatches(rule, record) : rule.record) continue;
    refuseUnlessAllowed(ctx, rule, record ? `Changing ${field}` : `Setting ${field} to ${JSON.stringify(value)}`);
  }
}

const recordMatches = (rule: FieldRequirement, record: Readonly<Record<string, unknown>>) =>
  Object.entries(rule.record ?? {}).every(([field, held]) => held.includes(record[field] as never));

function refuseUnlessAllowed(ctx: Ctx, rule: FieldRequirement, what: string): void {
  const { actor } = ctx;
  if (actor.type === "owner") return;
  if (actor.type === "user") {
    if (!rule.roles.includes(actor.role)) throw roleRefusal(rule.roles, actor.role);
    return;
  }
  if (!scopeAllows(actor.scope, rule.scope)) {
    throw new AppError("forbidden", `${what} needs the ${rule.scope} scope; this key has ${actor.scope}`);
  }
  // Over MCP a key acts at most at the level its owner granted (API.md §9), field by field too.
  if (ctx.channel === "mcp" && !scopeAllows(actor.mcpAccess, rule.scope)) {
    throw new AppError(
      "forbidden",
      `${what} needs mcp_access ${rule.scope}, granted by the owner with \`cts keys mcp-access ${actor.keyId} ${rule.scope}\`; this key has ${actor.mcpAccess}`,
    );
  }
}
