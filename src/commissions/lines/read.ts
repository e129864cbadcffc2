import type { Readable } from "node:stream";
import { seesUser, visibleUserIds } from "../../access/index.js";
import { type Ctx, requireScope } from "../../context.js";
import type { Db } from "../../db/schema.js";
import { notFound } from "../../errors.js";
import { offsetOf, type Page, type PageQuery } from "../../http/pagination.js";
import type { Commission, ExportCommissionsQuery, ListCommissionsQuery, StatementLine } from "../schema.js";
import { type CsvLine, csvStream } from "./csv.js";
import * as repo from "./repository.js";
import { type RunLinesFilter, runLines } from "./statement-repository.js";

export async function listCommissions(ctx: Ctx, query: ListCommissionsQuery): Promise<Page<Commission>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listLines(ctx.db, query, await visibleUserIds(ctx), limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

/** Every matching line as CSV, unpaginated, read from the database a chunk at a time as it streams. */
export function exportCommissions(ctx: Ctx, query: ExportCommissionsQuery): Readable {
  requireScope(ctx, "read");
  return csvStream(visibleLines(ctx, query));
}

async function* visibleLines(ctx: Ctx, query: ExportCommissionsQuery): AsyncGenerator<CsvLine[]> {
  yield* repo.allLines(ctx.db, query, await visibleUserIds(ctx));
}

/** The export's strong ETag, known before it streams (the pipeline hashes only bodies it holds whole). */
export async function exportEtag(ctx: Ctx, query: ExportCommissionsQuery): Promise<string> {
  requireScope(ctx, "read");
  return `"csv1-${await repo.exportDigest(ctx.db, query, await visibleUserIds(ctx))}"`;
}

/**
 * A page of a payout run's lines (API.md §13), by user, currency, creation date and id; the run's reader
 * checked who may see it.
 */
export async function listRunLines(
  db: Db,
  runId: string,
  query: RunLinesFilter & PageQuery,
): Promise<Page<StatementLine>> {
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await runLines(db, runId, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getCommission(ctx: Ctx, id: string): Promise<Commission> {
  requireScope(ctx, "read");
  const line = await repo.findLine(ctx.db, id);
  if (!line || !(await seesUser(ctx, line.user_id))) throw notFound("Commission", id);
  return line;
}
