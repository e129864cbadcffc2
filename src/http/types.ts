import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ZodType } from "zod";
import type { Ctx, Scope } from "../context.js";

/** The Fastify instance every feature's routes receive: zod schemas type the handlers. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module "fastify" {
  interface FastifyContextConfig {
    /** The scope a route needs; checked by the pipeline before validation (API.md §2 order). */
    scope?: Scope;
    /** Public routes (health, OpenAPI, docs) skip authentication and the rate limit. */
    public?: boolean;
    /** PATCH/PUT: the record's GET representation (its reader and schema), checked against If-Match. */
    ifMatch?: { read: (ctx: Ctx, params: Record<string, string>) => Promise<unknown>; schema: ZodType };
  }
  interface FastifyRequest {
    /** Set by the pipeline once the key is known; routes pass it to one service call. */
    ctx: Ctx;
    /** The origin clients see (CTS_PUBLIC_URL or the request's own), for Link headers. */
    publicOrigin: string;
  }
}
