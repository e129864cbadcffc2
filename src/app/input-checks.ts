import { z } from "zod";
import { validationError } from "../errors.js";
import type { App } from "../http/types.js";

/** Keys that would reach or shadow Object.prototype in a map field: refused, never silently dropped. */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a piece of text cannot be stored (PostgreSQL text and jsonb refuse both), or undefined. */
function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain the NUL character (\\u0000)";
  if (LONE_SURROGATE.test(text)) return "must not contain a lone UTF-16 surrogate (invalid Unicode)";
  return undefined;
}

interface Problem {
  param: string;
  message: string;
}

/**
 * The first text or key in the input that no field may hold, with its path (`deals[1].owner_id`).
 * Recursion is safe: the body parser refused anything nested deeper than 64 levels.
 */
function findProblem(value: unknown, path: string): Problem | undefined {
  if (typeof value === "string") {
    const message = textProblem(value);
    return message ? { param: path, message } : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const isArray = Array.isArray(value);
  for (const [k, v] of Object.entries(value)) {
    const param = isArray ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    if (!isArray) {
      const keyMessage = RESERVED_KEYS.has(k) ? "is a reserved name and cannot be a key" : textProblem(k);
      if (keyMessage) return { param, message: keyMessage };
    }
    const found = findProblem(v, param);
    if (found) return found;
  }
  return undefined;
}

/**
 * Input every route refuses the same way, before its own validation (API.md §2): an empty body means
 * `{}`, a literal `null` body is not an object, and no text anywhere (path, query, body, MCP arguments)
 * may hold what the database cannot store or a key that reaches Object.prototype.
 */
export function registerInputChecks(app: App): void {
  // Query strings are strict everywhere (API.md §2): a route that declares none accepts none.
  app.addHook("onRoute", (route) => {
    if (route.schema && !route.schema.querystring) route.schema.querystring = z.strictObject({});
  });
  // Synchronous (a callback hook): every request passes here, and a promise each is not free.
  app.addHook("preValidation", (req, _reply, done) => {
    if (req.method === "POST" || req.method === "PUT" || req.method === "PATCH") {
      if (req.body === undefined) req.body = {};
      else if (req.body === null) return done(validationError("body", "must be a JSON object, not null"));
    }
    const problem = findProblem(req.params, "") ?? findProblem(req.query, "") ?? findProblem(req.body, "");
    done(problem ? validationError(problem.param || "body", problem.message) : undefined);
  });
}
