import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { MAY } from "../access/index.js";
import { matchesIfNoneMatch } from "../http/etag.js";
import { IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { CSV_HEADER, csvAttachment, csvText } from "./csv.js";
import { type ExportCommissionsQuery, ExportCommissionsQuery as ExportQuery, StatementQuery } from "./schema.js";
import * as service from "./service.js";
import { getStatement } from "./statement.js";

const tags = ["Commissions"];

/** What both exports write (API.md §4). */
export const CSV_FORMAT =
  "CSV (RFC 4180, CRLF line ends, amounts with 2 decimals) with the header " +
  `\`${CSV_HEADER}\`. The file opens with a UTF-8 byte order mark (so ` +
  "spreadsheets read it as UTF-8; parse it BOM-aware), comes as an attachment (`Content-Disposition`) with an `ETag`, " +
  "and a text cell starting with `=`, `+`, `-`, `@`, TAB or CR is prefixed with `'` so no spreadsheet runs it as a " +
  "formula (OWASP); `amount` is a number and never prefixed.";

const csvResponse = (description: string) => ({
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
export async function sendStatementCsv(req: FastifyRequest, reply: FastifyReply, userId: string, period: string) {
  const statement = await getStatement(req.ctx, userId, period);
  reply.header("Content-Disposition", csvAttachment(`statement-${userId}-${period}`));
  return reply.type("text/csv; charset=utf-8").send(csvText(statement.lines));
}

/**
 * The CSV exports as operations of their own: their one 200 is `text/csv`, so a client generated from
 * the document reads text (a generator that parses every body as JSON cannot tell an `Accept` apart).
 * `Accept: text/csv` on the JSON operations still answers the same CSV, for the clients that use it.
 */
export function csvRoutes(app: App): void {
  app.get(
    "/commissions.csv",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "Export commission lines as CSV",
        operationId: "exportCommissionsCsv",
        description: `Every line GET /commissions would list with these filters (newest first, not paginated), streamed as ${CSV_FORMAT}`,
        querystring: ExportQuery,
        response: { 200: csvResponse("The lines as CSV.") },
      },
    },
    (req, reply) => sendCommissionsCsv(req, reply, req.query),
  );

  app.get(
    "/users/:id/statement.csv",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "Export a user's statement as CSV",
        operationId: "exportUserStatementCsv",
        description: `The lines of GET /users/{id}/statement for \`period\`, in deal order, as ${CSV_FORMAT}`,
        params: IdParams,
        querystring: StatementQuery,
        response: { 200: csvResponse("The statement's lines as CSV.") },
      },
    },
    (req, reply) => sendStatementCsv(req, reply, req.params.id, req.query.period),
  );
}
