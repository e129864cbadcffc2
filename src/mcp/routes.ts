import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";
import { admitCalls, createMcpServer } from "./server.js";

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
    const server = createMcpServer(req.ctx, {
      version: options.version,
      onBug: (err) => req.log.error({ err, request_id: req.id }, "mcp tool failed"),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    admitCalls(transport, req.ctx);
    handOver(reply);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
}

/** The transport writes the response itself: the headers the pipeline set must be on it first. */
function handOver(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.raw.setHeader("Cache-Control", "private, no-cache");
  reply.hijack();
}

/**
 * Browsers send Origin; a page on another site must not drive tools with a key it got hold of.
 * No Origin (desktop clients, the stdio bridge, curl) is fine.
 */
async function checkOrigin(req: FastifyRequest): Promise<void> {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const allowed = [req.publicOrigin, `${req.protocol}://${req.host}`].map(originOf);
  if (!allowed.includes(originOf(origin))) {
    throw new AppError(
      "forbidden",
      `Origin ${origin} may not use /mcp; only ${[...new Set(allowed)].join(" or ")} (or no Origin header) may`,
    );
  }
}

function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}
