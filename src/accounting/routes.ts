import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { MAY } from "../access/index.js";
import { csvAttachment, csvResponse, wantsCsv } from "../commissions/index.js";
import { rolesOfScope } from "../context.js";
import { declareRoutes } from "../declare-routes.js";
import { pageReply } from "../http/list-reply.js";
import type { App } from "../http/types.js";
import { JOURNAL_CSV_HEADER, journalCsvBody, listJournal } from "./journal.js";
import { getRollForward, listSchedules, MAX_ROLL_FORWARD_MONTHS } from "./reports.js";
import {
  AccountingAsset,
  AccountingSettings,
  JournalPage,
  JournalQuery,
  PutAccountingSettingsBody,
  RollForward,
  RollForwardQuery,
  ScheduleQuery,
} from "./schema.js";
import { getAccountingSettings, putAccountingSettings } from "./settings.js";

const tags = ["Accounting"];
const READERS = "People: finance and admins; keys: read scope.";

export function accountingRoutes(app: App): void {
  const route = declareRoutes(app, tags);
  const settingsRef = { path: `${app.prefix}/settings/accounting`, schema: AccountingSettings };

  route.get(
    {
      path: "/settings/accounting",
      scope: "read",
      roles: MAY.accounting,
      summary: "Get the accounting settings",
      operationId: "getAccountingSettings",
      description: `How commission assets are made (API.md §17, ASC 340-40) and the journal's account names. ${READERS}`,
      query: z.strictObject({}),
      response: AccountingSettings,
    },
    ({ ctx }) => getAccountingSettings(ctx),
  );

  app.put(
    "/settings/accounting",
    {
      config: {
        scope: "admin",
        roles: rolesOfScope("admin"),
        ifMatch: { read: (ctx) => getAccountingSettings(ctx), schema: AccountingSettings },
        represents: { ...settingsRef, locate: () => settingsRef.path },
      },
      schema: {
        tags,
        summary: "Replace the accounting settings",
        operationId: "putAccountingSettings",
        description:
          "The whole object; an omitted field (or account name) takes its default. Applies to assets made from now " +
          "on: an asset keeps the N and treatment it was made with (never restated); account names apply to every " +
          "journal read. Account names must differ from one another. Event accounting.settings_updated. Admins; " +
          "keys: admin scope.",
        body: PutAccountingSettingsBody,
        response: { 200: AccountingSettings },
      },
    },
    (req) => putAccountingSettings(req.ctx, req.body),
  );

  route.list(
    {
      path: "/accounting/schedule",
      scope: "read",
      roles: MAY.accounting,
      summary: "List commission assets with their schedules",
      operationId: "listAccountingSchedule",
      description:
        "Each capitalizable line of an approved deal, newest approval first: its N, treatment and month-by-month " +
        "schedule (addition, adjustment, amortization, clawback, impairment, closing) in its own currency. At least " +
        "one of deal_id, user_id, month, else 422; `month` lists the assets on the books in it and gives each " +
        `balance as of its end. ${READERS}`,
      query: ScheduleQuery,
      item: AccountingAsset,
    },
    ({ ctx, query }) => listSchedules(ctx, query),
  );

  route.get(
    {
      path: "/accounting/roll-forward",
      scope: "read",
      roles: MAY.accounting,
      summary: "Roll the deferred commissions forward",
      operationId: "getAccountingRollForward",
      description:
        `Per currency, from the first day of \`from\` to the last of \`to\` (at most ${MAX_ROLL_FORWARD_MONTHS} months): ` +
        "opening + additions + adjustments − amortization − clawbacks − impairment = closing; current is the " +
        "amortization scheduled in the 12 months after `to` as the schedules stand today, noncurrent the rest. " +
        `No figure adds two currencies. ${READERS}`,
      query: RollForwardQuery,
      response: RollForward,
    },
    ({ ctx, query }) => getRollForward(ctx, query),
  );

  app.get(
    "/accounting/journal",
    {
      config: { scope: "read", roles: MAY.accounting },
      schema: {
        tags,
        summary: "The month's journal entries",
        operationId: "listAccountingJournal",
        description:
          "Balanced entries of the month (API.md §17): additions and adjustments Dr deferred commissions / Cr " +
          "commissions payable; expensed lines Dr commission expense / Cr commissions payable; amortization (on the " +
          "month's last day) and impairment Dr commission expense / Cr deferred commissions; clawbacks Dr clawback " +
          "receivable / Cr deferred commissions (beyond the asset: Cr commission expense). A negative amount swaps " +
          "the sides. Each posting is a debit row then its credit row, ordered by line then posting type; the others " +
          "are dated their event. `meta.debit` and `meta.credit` sum every page (null when several currencies; " +
          "`meta.totals` per currency). `summary=true`: one row per account, side and currency. With " +
          `\`Accept: text/csv\`, every row (not paginated) under \`${JOURNAL_CSV_HEADER}\`, the unused side empty, ` +
          `a UTF-8 byte order mark first (up to 5,000 entries with an ETag; a longer month is streamed without one). ${READERS}`,
        querystring: JournalQuery,
        response: {
          200: {
            description: "The journal (JSON), or every row as CSV with `Accept: text/csv`.",
            content: {
              "application/json": { schema: JournalPage },
              "text/csv": csvResponse("").content["text/csv"],
            },
          },
        },
      },
    },
    async (req, reply) => {
      reply.header("Vary", "Accept");
      if (wantsCsv(req.headers.accept)) {
        const { page: _page, per_page: _perPage, ...filter } = req.query;
        const name = `journal-${filter.month}${filter.currency ? `-${filter.currency}` : ""}${filter.summary ? "-summary" : ""}`;
        reply.header("Content-Disposition", csvAttachment(name));
        const body = await journalCsvBody(req.ctx, filter);
        const csv = (reply as FastifyReply).type("text/csv; charset=utf-8");
        return csv.send(typeof body === "string" ? body : Readable.from(body));
      }
      const page = await listJournal(req.ctx, req.query);
      pageReply(req, reply, page); // the Link header; the page keeps its own meta
      return page;
    },
  );
}
