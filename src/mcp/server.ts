import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, isJSONRPCRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Ctx } from "../context.js";
import { toAppError } from "../db/errors.js";
import { AppError } from "../errors.js";
import { allowedTools, missingFor } from "./gate.js";
import { errorResult, invalidArguments, okResult } from "./results.js";
import type { McpTool } from "./tool.js";
import { findTool, TOOLS } from "./tools.js";

const INSTRUCTIONS =
  "Commission Tracking Service: the users, deals, comp plans and commissions of one company. Tools return " +
  "the REST API's JSON bodies (money as numbers with at most 2 decimals). tools/list shows only the tools " +
  "this API key may use; the owner grants write and admin tools with `cts keys mcp-access`.";

export interface McpServerOptions {
  version: string;
  /** The HTTP request this server answers (error bodies quote it; `cts mcp` relays to HTTP too). */
  requestId: string;
  /** Hears unexpected errors (bugs), so they are logged with the request id. */
  onBug: (err: unknown) => void;
}

/**
 * A schema tagged `.meta({ id })` (for OpenAPI components) becomes a bare `$ref` in JSON Schema, but MCP
 * wants `type: "object"` at the root: an untagged copy of the same shape keeps nested refs only.
 */
function inlineRoot<S extends z.ZodObject>(schema: S): z.ZodObject<S["shape"]> {
  return schema.extend({});
}

/** What tools/list shows of each row, built once: the SDK turns the zod schemas into JSON Schema. */
const LISTINGS = new Map(
  TOOLS.map((tool) => [
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: inlineRoot(tool.input),
      outputSchema: inlineRoot(tool.output),
      annotations: { title: tool.title, ...tool.annotations },
    },
  ]),
);

/** A server for one request: only the tools this key may use are registered, so only they are listed. */
export function createMcpServer(ctx: Ctx, options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: "commission-tracking-service", title: "Commission Tracking Service", version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of allowedTools(TOOLS, ctx.actor)) {
    server.registerTool(tool.name, LISTINGS.get(tool.name)!, (args) => runTool(tool, ctx, args, options));
  }
  // registerTool claims `listChanged: true`, but this server lives for one request and can never send
  // that notification; undefined is merged over it and dropped from the JSON (no SDK option for it).
  server.server.registerCapabilities({ tools: { listChanged: undefined } });
  return server;
}

async function runTool(
  tool: McpTool,
  ctx: Ctx,
  args: unknown,
  { requestId, onBug }: McpServerOptions,
): Promise<CallToolResult> {
  try {
    // Parsed with the REST response schema, so structuredContent is exactly the REST body.
    return okResult(tool.output.parse(await tool.run({ ...ctx, channel: "mcp" }, args as never)));
  } catch (err) {
    return errorResult(toAppError(err, requestId, onBug), requestId);
  }
}

/**
 * Answers the tools/call requests this key may not make, or makes with invalid arguments, before the
 * SDK sees them: it would only say "Tool … not found" for a tool left unregistered, and REST's order
 * (403 before 422) should hold here too. Call after `server.connect(transport)`.
 */
export function admitCalls(transport: Transport, ctx: Ctx, requestId: string): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refused = refusal(message, ctx, requestId);
    if (!refused) return deliver?.(message, extra);
    transport.send(refused).catch((err: Error) => transport.onerror?.(err));
  };
}

function refusal(message: JSONRPCMessage, ctx: Ctx, requestId: string): JSONRPCMessage | undefined {
  if (!isJSONRPCRequest(message) || message.method !== "tools/call") return undefined;
  const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  const tool = typeof params.name === "string" ? findTool(params.name) : undefined;
  if (!tool) return undefined;
  const answer = (err: AppError): JSONRPCMessage => ({
    jsonrpc: "2.0",
    id: message.id,
    result: errorResult(err, requestId),
  });
  const missing = missingFor(tool, ctx.actor);
  if (missing) return answer(new AppError("forbidden", missing));
  const parsed = tool.input.safeParse(params.arguments ?? {});
  return parsed.success ? undefined : answer(invalidArguments(parsed.error));
}
