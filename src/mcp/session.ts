import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import { createMcpServer } from "./server.js";

/** One `POST /mcp` exchange: a fresh server holding this request's ctx, over a stateless transport. */
export async function serveMcp(req: FastifyRequest, reply: FastifyReply, version: string): Promise<void> {
  const server = createMcpServer(req.ctx, {
    version,
    requestId: req.id,
    onBug: (err) => req.log.error({ err, request_id: req.id }, "mcp tool failed"),
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.raw.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  handOver(reply);
  await transport.handleRequest(req.raw, reply.raw, req.body);
}

/** The transport writes the response itself: the headers the pipeline set must be on it first. */
function handOver(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.raw.setHeader("Cache-Control", "private, no-cache");
  reply.hijack();
}
