import { MAY, visibleUserIds } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, conflict, notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { planDocument, sha256Of } from "./document.js";
import * as repo from "./repository.js";
import type {
  AcknowledgeBody,
  ListPlanAcknowledgementsQuery,
  MyPlanAcknowledgementsQuery,
  PlanAcknowledgement,
  PlanAcknowledgementDetail,
} from "./schema.js";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toAcknowledgement(r: repo.AcknowledgementRow): PlanAcknowledgement {
  return {
    id: r.id,
    user_id: r.user_id,
    user_name: r.user_name,
    plan_id: r.plan_id,
    plan_name: r.plan_name,
    plan_version: r.plan_version,
    status: r.acknowledged_at === null ? "pending" : "acknowledged",
    document_sha256: r.document_sha256,
    acknowledged_at: iso(r.acknowledged_at),
    created_at: iso(r.created_at)!,
  };
}

function personOf(ctx: Ctx): string {
  if (ctx.actor.type !== "user") {
    throw new AppError(
      "forbidden",
      "Plan acknowledgements belong to a person: sign in (an API key acknowledges nothing)",
    );
  }
  return ctx.actor.userId;
}

/** `GET /plan-acknowledgements`: who was asked to acknowledge which plan version, and who has not (admins, finance). */
export async function listPlanAcknowledgements(
  ctx: Ctx,
  query: ListPlanAcknowledgementsQuery,
): Promise<Page<PlanAcknowledgement>> {
  requireScope(ctx, "read", MAY.readPayouts);
  const visible = await visibleUserIds(ctx);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listAcknowledgements(
    ctx.db,
    { userIds: visible === null ? null : [...visible], status: query.status, userId: query.user_id },
    limit,
    offset,
  );
  return { data: rows.map(toAcknowledgement), meta: { page: query.page, per_page: query.per_page, total } };
}

/** `GET /me/plan-acknowledgements`: the signed-in person's plans to read and acknowledge, and those done. */
export async function listMyPlanAcknowledgements(
  ctx: Ctx,
  query: MyPlanAcknowledgementsQuery,
): Promise<Page<PlanAcknowledgement>> {
  requireScope(ctx, "read");
  const userId = personOf(ctx);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listAcknowledgements(
    ctx.db,
    { userIds: [userId], status: query.status },
    limit,
    offset,
  );
  return { data: rows.map(toAcknowledgement), meta: { page: query.page, per_page: query.per_page, total } };
}

async function visibleRow(ctx: Ctx, id: string, lock = false): Promise<repo.AcknowledgementRow> {
  const row = await repo.findAcknowledgement(ctx.db, id, lock);
  const visible = await visibleUserIds(ctx);
  if (!row || (visible !== null && !visible.includes(row.user_id))) throw notFound("Plan acknowledgement", id);
  return row;
}

async function documentOf(ctx: Ctx, row: repo.AcknowledgementRow): Promise<string> {
  const terms = await repo.versionTerms(ctx.db, row.plan_id, row.plan_version);
  if (!terms) throw notFound("Plan version", `${row.plan_id} v${row.plan_version}`);
  return planDocument(terms, row.plan_version);
}

/** `GET /plan-acknowledgements/{id}`: one request with the plan's terms as a printable document. */
export async function getPlanAcknowledgement(ctx: Ctx, id: string): Promise<PlanAcknowledgementDetail> {
  requireScope(ctx, "read");
  const row = await visibleRow(ctx, id);
  const document = await documentOf(ctx, row);
  return { ...toAcknowledgement(row), document, current_document_sha256: sha256Of(document) };
}

/**
 * `POST /plan-acknowledgements/{id}/acknowledge`: the person themselves records that they read this plan
 * version: when, and the SHA-256 of the document as it reads now (their own `document_sha256`, when
 * given, must match it). Acknowledging never changes pay.
 */
export async function acknowledgePlan(ctx: Ctx, id: string, body: AcknowledgeBody): Promise<PlanAcknowledgementDetail> {
  requireScope(ctx, "read");
  return withTransaction(ctx, async (tx) => {
    const inTx = { ...ctx, db: tx };
    const row = await visibleRow(inTx, id, true);
    if (ctx.actor.type !== "user" || ctx.actor.userId !== row.user_id) {
      throw new AppError("forbidden", "Only the person asked may acknowledge their plan");
    }
    if (row.acknowledged_at !== null) {
      throw conflict(`Already acknowledged at ${iso(row.acknowledged_at)} (plan version ${row.plan_version})`);
    }
    const document = await documentOf(inTx, row);
    const sha = sha256Of(document);
    if (body.document_sha256 !== undefined && body.document_sha256 !== sha) {
      throw conflict("The plan's document changed since you opened it; read it again before acknowledging");
    }
    await repo.markAcknowledged(tx, id, sha, ctx.now);
    await audit(tx, ctx, {
      action: "plan.acknowledge",
      resource: "plan_acknowledgement",
      resourceId: id,
      after: { plan_id: row.plan_id, plan_version: row.plan_version, document_sha256: sha },
    });
    const done = { ...row, acknowledged_at: ctx.now, document_sha256: sha };
    return { ...toAcknowledgement(done), document, current_document_sha256: sha };
  });
}
