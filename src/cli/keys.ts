import type { Command } from "commander";
import type { ApiKey, CreatedApiKey } from "../api-keys/index.js";
import { UsageError } from "./errors.js";
import { runOwner } from "./owner.js";

const LEVELS = ["read", "write", "admin"];

const oneOf = (given: string) => `${LEVELS.join(", ")}, not ${JSON.stringify(given)}`;

function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(`${json ? JSON.stringify(value) : human()}\n`);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function expiresAt(value: string | undefined): string | undefined {
  if (value === undefined || (RFC3339.test(value) && !Number.isNaN(Date.parse(value)))) return value;
  throw new UsageError(
    `--expires-at must be an RFC 3339 timestamp such as 2030-12-31T23:59:59Z, not ${JSON.stringify(value)}`,
  );
}

function keyTable(keys: ApiKey[]): string {
  const rows = keys.map((k) => [
    k.id,
    k.prefix,
    k.scope,
    k.mcp_access,
    k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at ? `expires ${k.expires_at}` : "active",
    k.name,
  ]);
  const table = [["ID", "PREFIX", "SCOPE", "MCP", "STATE", "NAME"], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table
    .map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join("  "))
    .join("\n");
}

export function keysCommand(program: Command): void {
  const keys = program
    .command("keys")
    .description("Manage API keys as the owner (works with or without a running server)");

  keys
    .command("create")
    .description("Create an API key; the raw key is printed once")
    .requiredOption("--scope <scope>", "read | write | admin")
    .requiredOption("--name <name>", "what the key is for")
    .option("--expires-at <timestamp>", "RFC 3339 expiry")
    .option("--json", "print {id,key,scope,environment,name} on one line")
    .action(async (o: { scope: string; name: string; expiresAt?: string; json?: boolean }) => {
      if (!LEVELS.includes(o.scope)) throw new UsageError(`--scope must be one of ${oneOf(o.scope)}`);
      const k = (await runOwner("keys.create", {
        scope: o.scope,
        name: o.name,
        expires_at: expiresAt(o.expiresAt),
      })) as CreatedApiKey;
      const summary = { id: k.id, key: k.key, scope: k.scope, environment: k.environment, name: k.name };
      print(
        !!o.json,
        summary,
        () => `${k.key}\n\nCreated ${k.id} (${k.scope}, ${k.environment}) "${k.name}". The key is shown only now.`,
      );
    });

  keys
    .command("list")
    .description("List every key (never the raw keys)")
    .option("--json", "print a JSON array")
    .action(async (o: { json?: boolean }) => {
      const list = (await runOwner("keys.list", {})) as ApiKey[];
      print(!!o.json, list, () => (list.length === 0 ? "No keys." : keyTable(list)));
    });

  keys
    .command("revoke <id>")
    .description("Revoke a key; effective on its next request")
    .option("--json", "print the key as JSON")
    .action(async (id: string, o: { json?: boolean }) => {
      const k = (await runOwner("keys.revoke", { id })) as ApiKey;
      print(!!o.json, k, () => `Revoked ${k.id} at ${k.revoked_at}.`);
    });

  keys
    .command("mcp-access <id> <level>")
    .description("Grant the MCP tool level (read | write | admin) an assistant using this key may reach")
    .option("--json", "print the key as JSON")
    .action(async (id: string, level: string, o: { json?: boolean }) => {
      if (!LEVELS.includes(level)) throw new UsageError(`level must be one of ${oneOf(level)}`);
      const k = (await runOwner("keys.mcp-access", { id, level })) as ApiKey;
      print(!!o.json, k, () => `${k.id} may now use ${k.mcp_access} MCP tools (within its ${k.scope} scope).`);
    });
}
