import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { emit } from "../events/emit.js";
import { toIso } from "../http/date-fields.js";
import * as repo from "./repository.js";
import { type AccountingSettings, type AccountingSettingsValues, PutAccountingSettingsBody } from "./schema.js";

// GET and PUT /settings/accounting (API.md §17): one object, each omitted field its default. A change
// applies to assets made after it; account names to every journal read.

/** The stored settings with today's defaults for anything they lack. */
export function settingsValues(stored: Record<string, unknown>): AccountingSettingsValues {
  return PutAccountingSettingsBody.parse(stored);
}

function toSettings(row: repo.SettingsRow): AccountingSettings {
  return { ...settingsValues(row.settings), updated_at: toIso(row.updated_at)! };
}

export async function getAccountingSettings(ctx: Ctx): Promise<AccountingSettings> {
  requireScope(ctx, "read", MAY.accounting);
  return toSettings(await repo.readSettings(ctx.db));
}

export async function putAccountingSettings(ctx: Ctx, body: PutAccountingSettingsBody): Promise<AccountingSettings> {
  requireScope(ctx, "admin");
  const values = PutAccountingSettingsBody.parse(body);
  return withTransaction(ctx, async (tx) => {
    const before = toSettings(await repo.lockSettings(tx));
    await ctx.precondition?.(tx);
    const after = toSettings(await repo.writeSettings(tx, values, ctx.now));
    await audit(tx, ctx, {
      action: "accounting_settings.update",
      resource: "accounting_settings",
      resourceId: "accounting",
      before,
      after,
    });
    await emit(tx, ctx, "accounting.settings_updated", { object: after });
    return after;
  });
}
