import { type Actor, scopeAllows } from "../context.js";
import type { McpTool } from "./tool.js";

/**
 * What this actor lacks to use `tool`, as a sentence, or undefined when it may (API.md §9): the key's
 * scope must allow the tool's scope AND the owner must have granted the tool's `mcp_access` level.
 * A key's scope never changes, so when it falls short, the fix is another key, then the grant.
 */
export function missingFor(tool: McpTool, actor: Actor): string | undefined {
  if (actor.type === "owner") return undefined;
  if (actor.type === "user") return `${tool.name} is for API keys; people use the REST API or the console`;
  if (!scopeAllows(actor.scope, tool.scope)) {
    return (
      `${tool.name} needs the ${tool.scope} scope; this key has ${actor.scope}. Use a key with the ` +
      `${tool.scope} scope whose owner granted mcp_access ${tool.access} (\`cts keys mcp-access KEY_ID ${tool.access}\`)`
    );
  }
  if (!scopeAllows(actor.mcpAccess, tool.access)) {
    return (
      `${tool.name} needs mcp_access ${tool.access}, granted by the owner with ` +
      `\`cts keys mcp-access ${actor.keyId} ${tool.access}\`; this key has ${actor.mcpAccess}`
    );
  }
  return undefined;
}

export function allowedTools(tools: readonly McpTool[], actor: Actor): McpTool[] {
  return tools.filter((tool) => missingFor(tool, actor) === undefined);
}
