import type { FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** `routeOptions`, read once: Fastify builds a new object on every read of it. */
    matched: FastifyRequest["routeOptions"] | undefined;
  }
}

/**
 * The options of the route the router matched (its config, url, schema). The hooks every request passes
 * read them about seven times, and each read of `req.routeOptions` builds a twelve-field object: the
 * first read is kept on the request (decorated by the pipeline) for the rest.
 */
export function matchedRoute(req: FastifyRequest): FastifyRequest["routeOptions"] {
  req.matched ??= req.routeOptions;
  return req.matched;
}
