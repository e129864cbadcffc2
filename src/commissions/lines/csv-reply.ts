import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { matchesIfNoneMatch } from "../../http/etag.js";
import type { ExportCommissionsQuery, StatementQuery } from "../schema.js";
import { CSV_HEADER, csvAttachment, statementCsvText } from "./csv.js";
import * as service from "./read.js";
import { getStatement } from "./statement.js";

/** What both exports write (API.md §4). */
export const CSV_FORMAT =
  "CSV (RFC 4180, CRLF line ends, amounts at their currency's decimals) with the header " +
  `\`${CSV_HEADER}\`. The file opens with a UTF-8 byte order mark (so ` +
  "spreadsheets read it as UTF-8; parse it BOM-aware), comes as an attachment (`Content-Disposition`) with an `ETag`, " +
  "and a text cell starting with `=`, `+`, `-`, `@`, TAB or CR is prefixed with `'` so no spreadsheet runs it as a " +
  "formula (OWASP); `amount` is a number and never prefixed.";

export const csvResponse = (description: string) => ({
  description,
  content: { "text/csv": { schema: z.string().describe("RFC 4180 CSV, UTF-8 with a byte order mark.") } },
});

/** Streams every line `query` matches as CSV, or 304 when the export's ETag still matches. */
export async function sendCommissionsCsv(req: FastifyRequest, reply: FastifyReply, query: ExportCommissionsQuery) {
  const etag = await service.exportEtag(req.ctx, query);
  reply.header("ETag", etag);
  if (matchesIfNoneMatch(req.headers["if-none-match"], etag)) return reply.code(304).send();
  reply.header("Content-Disposition", csvAttachment("commissions"));
  return reply.type("text/csv; charset=utf-8").send(service.exportCommissions(req.ctx, query));
}

/** The statement's lines as CSV (the pipeline gives the text its ETag). */
export async function sendStatementCsv(
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  { period, deal_columns }: StatementQuery,
) {
  const statement = await getStatement(req.ctx, userId, period);
  reply.header("Content-Disposition", csvAttachment(`statement-${userId}-${period}`));
  return reply.type("text/csv; charset=utf-8").send(statementCsvText(statement.lines, deal_columns ?? false));
}
