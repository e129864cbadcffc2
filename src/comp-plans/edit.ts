import type { Db } from "../db/schema.js";
import { validationError } from "../errors.js";
import { minorUnitMessage } from "../http/commission-fields.js";
import { parse, plain, tooManyDecimals } from "../money/index.js";
import { quotaOverridesOf } from "./assignments-repository.js";
import * as repo from "./repository.js";
import type { UpdatePlanBody } from "./schema.js";
import { checkPlanTerms, normalizeTerms, sameTerms } from "./validate.js";

const KIND_NAMES = { standard: "a standard plan", override: "an override plan" } as const;

function merged(before: repo.PlanRecord, input: UpdatePlanBody): repo.PlanRecord {
  if (input.kind !== undefined && input.kind !== before.kind) {
    throw validationError(
      "kind",
      `is immutable: plan ${before.id} is ${KIND_NAMES[before.kind]}; create ${KIND_NAMES[input.kind]} instead`,
    );
  }
  const next: repo.PlanRecord = { ...before };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || key === "retroactive" || key === "kind") continue;
    if (key === "tiers") next.tiers = (value as repo.PlanTerms["tiers"] | null) ?? [];
    else (next as unknown as Record<string, unknown>)[key] = value;
  }
  return { ...next, ...normalizeTerms(next) };
}

/** API.md §15: a new currency must fit the quota overrides of the plan's assignments too. */
const plainText = (v: string) => plain(parse(v));

async function checkQuotaOverrides(db: Db, plan: repo.PlanRecord): Promise<void> {
  const over = (await quotaOverridesOf(db, plan.id)).find((a) => tooManyDecimals(a.quota_override, plan.currency));
  if (over) {
    const has = `assignment ${over.id} has quota_override ${plainText(over.quota_override)}`;
    throw validationError("currency", `cannot be ${plan.currency}: ${has} (quotas ${minorUnitMessage(plan.currency)})`);
  }
}

/** What a PATCH body makes of the stored plan; the impact preview and the update both start here. */
export interface PlanEdit {
  record: repo.PlanRecord;
  termsChanged: boolean;
  statusChanged: boolean;
  newVersion: boolean;
  changed: boolean;
}

export async function planEdit(db: Db, before: repo.PlanRecord, input: UpdatePlanBody, now: Date): Promise<PlanEdit> {
  const next = merged(before, input);
  checkPlanTerms(next);
  if (next.currency !== before.currency) await checkQuotaOverrides(db, next);
  const termsChanged = !sameTerms(before, next);
  const statusChanged = before.status !== next.status;
  const changed = termsChanged || statusChanged || before.name !== next.name || before.description !== next.description;
  const newVersion =
    termsChanged && (before.status === "active" || (await repo.versionInUse(db, before.id, before.version)));
  const record = {
    ...next,
    version: before.version + (newVersion ? 1 : 0),
    updated_at: changed ? now : before.updated_at,
  };
  return { record, termsChanged, statusChanged, newVersion, changed };
}
