import { z } from "zod";
import { SCOPES } from "../enums.js";
import { Timestamp, TimestampInput } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";

export const ScopeEnum = z.enum(SCOPES);

export const ApiKey = z
  .object({
    id: z.string().describe("key_…"),
    name: z.string(),
    scope: ScopeEnum.describe("read ⊂ write ⊂ admin"),
    environment: z.string(),
    prefix: z
      .string()
      .describe("The first characters of the key, to tell keys apart (the key itself is never shown again)."),
    mcp_access: ScopeEnum.describe("Highest MCP tool level the owner granted this key (cts keys mcp-access)."),
    replaces: z.string().nullable().describe("Id of the key this one replaced by rotation."),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreatedApiKey = ApiKey.extend({
  key: z.string().describe("The raw key: shown in this response only. Store it in a secret manager."),
}).meta({ id: "CreatedApiKey" });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scope: ScopeEnum,
  expires_at: TimestampInput.nullable().optional().describe("Optional expiry; the key stops working at this time."),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const RotateApiKeyBody = z.strictObject({
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(0)
    .describe("How long the old key keeps working (0-86400 s, default 0: it stops at once)."),
});

export const ListApiKeysQuery = PageQuery.strict();
