import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";

// The MCP SDK and the tool table are loaded on the first /mcp request, not at start-up (API processes
// that never serve MCP skip ~25 SDK modules, zod-to-json-schema and ajv).
let session: Promise<typeof import("./session.js")> | undefined;

/**
 * `POST /mcp`: Streamable HTTP, stateless (API.md §9). The pipeline has already authenticated the key,
 * counted it against the rate limit and set the contract headers; a fresh server per request holds
 * that request's ctx. GET and DELETE get 405 from the app's not-found handler (no SSE, no sessions).
 */
export function mcpRoutes(app: App, options: { version: string }): void {
  app.post("/mcp", { schema: { hide: true }, onRequest: checkOrigin }, async (req, reply) => {
    // One rate-limit hit per HTTP request: a batch would let 100 calls through as one.
    if (Array.isArray(req.body)) {
      throw new AppError("bad_request", "JSON-RPC batches are not accepted on /mcp; send one message per request");
    }
    session ??= import("./session.js");
    await (await session).serveMcp(req, reply, options.version);
  });
}

/**
 * Browsers send Origin; a page on another site must not drive tools with a key it got hold of. Only
 * the service's own origin (API.md §20 (d)) passes; no Origin (desktop clients, the stdio bridge, curl) is fine.
 */
async function checkOrigin(req: FastifyRequest): Promise<void> {
  const origin = req.headers.origin;
  if (origin === undefined || originOf(origin) === req.publicOrigin) return;
  throw new AppError(
    "forbidden",
    `Origin ${origin} may not use /mcp; only ${req.publicOrigin} (or no Origin header) may`,
  );
}

function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}
