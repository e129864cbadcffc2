// The `cts mcp` relay: stdio (desktop assistants) ⇄ {CTS_API_URL}/mcp over Streamable HTTP, with the key.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";

export interface BridgeConfig {
  apiUrl: string;
  apiKey: string;
}

/**
 * fetch that turns "unreachable" and refused POSTs into one clear sentence each; other responses
 * (the 405 answering the SDK's optional SSE GET included) go to the SDK untouched.
 */
function checkedFetch(config: BridgeConfig): FetchLike {
  return async (url, init) => {
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new Error(`cannot reach ${config.apiUrl} (CTS_API_URL): ${why}; is \`cts serve\` running there?`);
    }
    if (res.ok || init?.method !== "POST") return res;
    const message = await errorMessageOf(res);
    if (res.status === 401) throw new Error(`the server at ${config.apiUrl} refused CTS_API_KEY (401): ${message}`);
    throw new Error(`${url} answered ${res.status}: ${message}`);
  };
}

async function errorMessageOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    return (JSON.parse(text) as { error: { message: string } }).error.message;
  } catch {
    return text.slice(0, 200) || res.statusText;
  }
}

/** One ping before relaying, so a wrong URL or key fails at start with a clear message, not inside the assistant. */
async function probe(config: BridgeConfig): Promise<void> {
  await checkedFetch(config)(new URL("/mcp", config.apiUrl), {
    method: "POST",
    headers: {
      authorization: `Bearer ${config.apiKey}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: "cts-mcp-probe", method: "ping" }),
    signal: AbortSignal.timeout(15_000),
  });
}

async function relay(config: BridgeConfig): Promise<void> {
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(new URL("/mcp", config.apiUrl), {
    requestInit: { headers: { authorization: `Bearer ${config.apiKey}` } },
    fetch: checkedFetch(config),
  });
  const initializeIds = new Set<RequestId>();
  local.onmessage = (message) => {
    if (isInitializeRequest(message) && isJSONRPCRequest(message)) initializeIds.add(message.id);
    remote.send(message).catch((err: Error) => answerFailure(local, message, err));
  };
  remote.onmessage = (message) => {
    // The SDK's Client does this itself; a relay must, so later requests carry MCP-Protocol-Version.
    if (isJSONRPCResultResponse(message) && initializeIds.delete(message.id)) {
      remote.setProtocolVersion(String(message.result.protocolVersion));
    }
    void local.send(message);
  };
  remote.onerror = (err) => warn(err.message);
  local.onerror = (err) => answerMalformed(local, err) ?? warn(err.message);
  await remote.start();
  await local.start();
  process.stdin.once("end", () => {
    void remote.close().finally(() => process.exit(0));
  });
}

/** A request the server never answered still gets an answer, so the assistant does not wait forever. */
function answerFailure(local: StdioServerTransport, message: JSONRPCMessage, err: Error): void {
  if (!isJSONRPCRequest(message)) return;
  void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: `cts mcp: ${err.message}` } });
}

/**
 * A stdin line that is not JSON, or not JSON-RPC, gets one JSON-RPC error (id null: there is none to
 * quote, JSON-RPC 2.0 §5) and one line on stderr, instead of the SDK parser's many lines of zod issues.
 */
function answerMalformed(local: StdioServerTransport, err: Error): true | undefined {
  const error =
    err instanceof SyntaxError
      ? { code: -32700, message: `Parse error: ${err.message}` }
      : err instanceof ZodError
        ? { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 request, notification or response" }
        : undefined;
  if (!error) return undefined;
  void local.send({ jsonrpc: "2.0", id: null, error } as unknown as JSONRPCMessage);
  warn(`malformed message on stdin: ${error.message}`);
  return true;
}

/** stdout carries only JSON-RPC; everything for humans goes to stderr. */
function warn(message: string): void {
  process.stderr.write(`cts mcp: ${message}\n`);
}

/** Probes the server once (so a wrong URL or key fails at start), then relays stdio to it until stdin ends. */
export async function runBridge(config: BridgeConfig): Promise<void> {
  await probe(config);
  await relay(config);
}
