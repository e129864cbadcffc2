import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { inputSchema, outputSchema } from "./json-schema.js";
import type { McpTool } from "./tool.js";

const listings = new WeakMap<McpTool, Tool>();

/** What tools/list shows of a row, written on first use (JSON Schema once per process, not per request). */
export function listingOf(tool: McpTool): Tool {
  let listing = listings.get(tool);
  if (!listing) {
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchema(tool.input) as Tool["inputSchema"],
      outputSchema: outputSchema(tool.output) as Tool["outputSchema"],
      annotations: { title: tool.title, ...tool.annotations },
    };
    listings.set(tool, listing);
  }
  return listing;
}
