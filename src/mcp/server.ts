import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Ctx } from "../context.js";
import { toAppError } from "../db/errors.js";
import { AppError } from "../errors.js";
import { allowedTools, missingFor } from "./gate.js";
import { listingOf } from "./listing.js";
import { errorResult, invalidArguments, okResult } from "./results.js";
import { findTool, TOOLS } from "./tools.js";

const INSTRUCTIONS =
  "Commission Tracking Service: the users, deals, comp plans and commissions of one company. Tools return " +
  "the REST API's JSON bodies (money as numbers with at most their currency's ISO 4217 minor-unit decimals). tools/list shows only the tools " +
  "this API key may use; the owner grants write and admin tools with `cts keys mcp-access`.";

export interface McpServerOptions {
  version: string;
  /** The HTTP request this server answers (error bodies quote it; `cts mcp` relays to HTTP too). */
  requestId: string;
  /** Hears unexpected errors (bugs), so they are logged with the request id. */
  onBug: (err: unknown) => void;
}

/**
 * A server for one request (API.md §9). The SDK's low-level Server, not McpServer: tools/list shows the
 * JSON Schemas written once per tool (listing.ts; McpServer converts every zod schema on every list, in a
 * form some clients refuse), and a call is checked in REST's order: forbidden (403) before invalid (422).
 */
export function createMcpServer(ctx: Ctx, options: McpServerOptions): Server {
  const server = new Server(
    { name: "commission-tracking-service", title: "Commission Tracking Service", version: options.version },
    // No listChanged: this server lives for one request and has no channel to send that notification on.
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: allowedTools(TOOLS, ctx.actor).map(listingOf) }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => callTool(ctx, params, options));
  return server;
}

async function callTool(
  ctx: Ctx,
  params: { name: string; arguments?: Record<string, unknown> | undefined },
  { requestId, onBug }: McpServerOptions,
): Promise<CallToolResult> {
  const tool = findTool(params.name);
  if (!tool) return errorResult(new AppError("not_found", `Tool ${params.name} not found`), requestId);
  const missing = missingFor(tool, ctx.actor);
  if (missing) return errorResult(new AppError("forbidden", missing), requestId);
  const parsed = tool.input.safeParse(params.arguments ?? {});
  if (!parsed.success) return errorResult(invalidArguments(parsed.error), requestId);
  try {
    // Parsed with the REST response schema, so structuredContent is exactly the REST body.
    return okResult(tool.output.parse(await tool.run({ ...ctx, channel: "mcp" }, parsed.data as never)));
  } catch (err) {
    return errorResult(toAppError(err, requestId, onBug), requestId);
  }
}
