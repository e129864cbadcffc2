import compress from "@fastify/compress";
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { App } from "../http/types.js";

/** JSON and CSV bodies (the OpenAPI document is JSON); the console and /docs send their own compressed files. */
const COMPRESSIBLE = /^(application\/json|text\/csv)\b/;

/**
 * API.md §20 (e): JSON and CSV over 1 KiB, streams included, go out as `br` (else `gzip`) when the
 * client accepts it, with `Vary: Accept-Encoding`, and the ETag of a compressed body ends `-br`/`-gzip`
 * inside the quotes (its bytes differ; http/etag.ts accepts every variant in If-Match/If-None-Match).
 * Routes that compress what they send themselves (static files) say `compress: false`.
 */
export async function registerCompression(app: App): Promise<void> {
  await app.register(compress, {
    encodings: ["br", "gzip"],
    threshold: 1025,
    customTypes: COMPRESSIBLE,
    // Request bodies stay as they are: a compressed one is not JSON (415/400), as before.
    globalDecompression: false,
  });
  // Registered after the plugin's own onRoute hook, so this onSend runs after its compression.
  app.addHook("onRoute", (route: RouteOptions) => {
    if (route.compress === false) return;
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...own, encodingHeaders];
  });
}

/** A callback hook, not an async one: it runs on every reply, and a promise each is not free. */
function encodingHeaders(
  _req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload: unknown) => void,
): void {
  const type = reply.getHeader("content-type");
  if (reply.statusCode !== 304 && !(typeof type === "string" && COMPRESSIBLE.test(type))) {
    done(null, payload);
    return;
  }
  reply.header("Vary", withAcceptEncoding(reply.getHeader("vary")));
  const encoding = reply.getHeader("content-encoding");
  const etag = reply.getHeader("etag");
  if ((encoding === "br" || encoding === "gzip") && typeof etag === "string" && !etag.endsWith(`-${encoding}"`)) {
    reply.header("ETag", `${etag.slice(0, -1)}-${encoding}"`);
  }
  done(null, payload);
}

/** The Vary value with Accept-Encoding last, once: most replies have none yet (no split and join then). */
function withAcceptEncoding(current: unknown): string {
  if (current === undefined || current === null || current === "") return "Accept-Encoding";
  const vary = String(current)
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && name.toLowerCase() !== "accept-encoding");
  return [...vary, "Accept-Encoding"].join(", ");
}
