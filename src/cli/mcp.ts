import type { Command } from "commander";
import { loadBridgeConfig } from "../config.js";

/**
 * `cts mcp`: stdio for desktop assistants, relayed to `{CTS_API_URL}/mcp` with CTS_API_KEY (API.md §9).
 * Tools, gate, rate limit and audit stay on the server; this process never opens a database.
 */
export function mcpCommand(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve MCP over stdio (Claude Desktop, Cursor, …) by relaying to {CTS_API_URL}/mcp with CTS_API_KEY; no database access",
    )
    .action(async () => {
      const config = loadBridgeConfig();
      // The MCP client and stdio transport load only for this command, not for `cts serve`.
      const { runBridge } = await import("./mcp-bridge.js");
      await runBridge(config);
    });
}
