import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
import { turnIfDue } from "../event-loop.js";

/**
 * A body with one long array (a bulk's 1,000 deals) whose items are validated one at a time, the loop
 * turning between them: validated whole, the body held the server's thread 30–55 ms (issue #19, no
 * stall). `envelope` is the body's schema with the array's items left unchecked (its size and the
 * other keys still checked); `item` is the items' schema.
 */
export interface BodyInPieces {
  envelope: z.ZodType;
  key: string;
  item: z.ZodType;
}

/** An issue as fastify-type-provider-zod reports it (its other fields kept as they are). */
type Issue = { instancePath: string };

/** The error Fastify would have made of the whole schema's issues (the error handler reads `validation`). */
function validationError(issues: Issue[]): Error {
  return Object.assign(new Error("body validation failed"), { validation: issues, validationContext: "body" });
}

/**
 * A route's validator compiler: the body in pieces, every other part as the app validates it. The
 * result is the whole schema's, to the issue and to the value: an envelope that fails is validated
 * whole; else each item, its issues' paths under `key[i]`, and the parsed items replace the raw ones
 * in the body (Fastify keeps the body object an async validator was given).
 */
export function validatorInPieces(pieces: BodyInPieces): FastifySchemaCompiler<z.ZodType> {
  const { envelope, key, item } = pieces;
  const checkEnvelope = validatorCompiler({ schema: envelope } as never) as (data: unknown) => { error?: unknown };
  const checkItem = validatorCompiler({ schema: item } as never) as (data: unknown) => {
    value?: unknown;
    error?: Issue[];
  };
  return (route) => {
    const whole = validatorCompiler(route as never);
    if (route.httpPart !== "body") return whole;
    // Fastify awaits a validator that returns a promise (as for Ajv's $async schemas); its types omit that.
    const validate = async (data: unknown) => {
      // The envelope's checks are the whole schema's but the items': when it fails, so does the whole.
      if (checkEnvelope(data).error) throw validationError((whole as (d: unknown) => { error: Issue[] })(data).error);
      const body = data as Record<string, unknown[]>;
      const items = body[key]!;
      const parsed: unknown[] = [];
      const issues: Issue[] = [];
      for (let i = 0; i < items.length; i++) {
        const result = checkItem(items[i]);
        if (result.error) {
          const at = `/${key}/${i}`;
          for (const issue of result.error) {
            const path = issue.instancePath === "/" ? "" : issue.instancePath;
            issues.push({ ...issue, instancePath: `${at}${path}` });
          }
        } else parsed.push(result.value);
        const turn = turnIfDue();
        if (turn) await turn;
      }
      if (issues.length > 0) throw validationError(issues);
      body[key] = parsed;
      return true;
    };
    return validate as never;
  };
}
