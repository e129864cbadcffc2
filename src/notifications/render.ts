import type { NotificationKind } from "./kinds.js";

/** One message, as sent: plain text and a simple HTML twin. */
export interface Message {
  subject: string;
  text: string;
  html: string;
}

/** What a delivery row holds to render its message (no secret: a token comes separately). */
export type MessageData = Record<string, unknown>;

function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const str = (data: MessageData, key: string): string => String(data[key] ?? "");

/** "USD 1,234.50": an exact decimal string grouped by thousands, never through a float. */
export function formatAmount(currency: string, amount: string): string {
  const negative = amount.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? amount.slice(1) : amount).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${currency} ${grouped}${fraction ? `.${fraction}` : ""}`;
}

function compose(subject: string, greeting: string, lines: string[], link: { label: string; url: string }): Message {
  const text = [greeting, "", ...lines, "", `${link.label}: ${link.url}`, "", "— Commission Tracking Service", ""].join(
    "\n",
  );
  const html = [
    "<!doctype html>",
    `<html lang="en"><body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(greeting)}</p>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color: #666">— Commission Tracking Service</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}

type DigestBucket = { deals: number; amounts: { currency: string; amount: string }[] };

/** "Approved: 2 deals, USD 1,234.50, EUR 300.00": each currency apart, never summed across them. */
function digestLine(label: string, value: unknown): string {
  const bucket = (value as DigestBucket | undefined) ?? { deals: 0, amounts: [] };
  if (bucket.deals === 0) return `${label}: none`;
  const amounts = bucket.amounts.map((a) => formatAmount(a.currency, a.amount));
  return `${label}: ${[`${bucket.deals} deal${bucket.deals === 1 ? "" : "s"}`, ...amounts].join(", ")}`;
}

function weeklyDigest(data: MessageData, hello: string, origin: string): Message {
  const at = (key: string) => str(data, key).slice(0, 16).replace("T", " ");
  const reports = Number(data.reports ?? 0);
  return compose(
    `Your team's week: ${str(data, "from").slice(0, 10)} to ${str(data, "to").slice(0, 10)}`,
    hello,
    [
      `Your team's week from ${at("from")} to ${at("to")} UTC (${reports} ${reports === 1 ? "person reports" : "people report"} to you):`,
      digestLine("Approved", data.approved),
      digestLine("Rejected", data.rejected),
      digestLine("Waiting for approval", data.pending),
      `Open disputes: ${Number(data.open_disputes ?? 0)}`,
    ],
    { label: "Open your team", url: `${origin}/team` },
  );
}

/**
 * The message of one delivery, in English, every link on `origin` (CTS_PUBLIC_URL). `secret` is the
 * reset or invitation token: it appears in the message and nowhere else.
 */
export function renderMessage(
  kind: NotificationKind,
  data: MessageData,
  origin: string,
  secret: string | null,
): Message {
  const hello = `Hello ${str(data, "name")},`;
  const deal = str(data, "deal_name");
  const dealLink = { label: "Open the deal", url: `${origin}/deals/${encodeURIComponent(str(data, "deal_id"))}` };
  switch (kind) {
    case "invitation":
      return compose(
        "You are invited to the Commission Tracking Service",
        hello,
        [
          "An admin invited you to see your commissions. Choose a password to sign in.",
          "The link works once, for 72 hours.",
        ],
        { label: "Accept your invitation", url: `${origin}/invite#${secret ?? ""}` },
      );
    case "password_reset":
      return compose(
        "Reset your password",
        hello,
        [
          "Someone (we hope you) asked to reset the password of this account.",
          "The link works once, for 1 hour. If you did not ask, ignore this message: your password stays as it is.",
        ],
        { label: "Choose a new password", url: `${origin}/reset-password#${secret ?? ""}` },
      );
    case "deal_approved":
      return compose(`Deal approved: ${deal}`, hello, [`The deal "${deal}" was approved.`], dealLink);
    case "deal_rejected":
      return compose(
        `Deal rejected: ${deal}`,
        hello,
        [`The deal "${deal}" was rejected.`, ...(data.reason ? [`Reason: ${str(data, "reason")}`] : [])],
        dealLink,
      );
    case "deal_cancelled":
      return compose(
        `Deal cancelled: ${deal}`,
        hello,
        [`The deal "${deal}" was cancelled; its commissions may be clawed back.`],
        dealLink,
      );
    case "dispute_opened":
      return compose(
        `Dispute opened on ${deal}`,
        hello,
        [`A dispute (${str(data, "reason")}) was opened on the deal "${deal}" and waits for an answer.`],
        { label: "Open the dispute queue", url: `${origin}/dispute-queue` },
      );
    case "dispute_resolved":
      return compose(
        `Your dispute on ${deal} was answered`,
        hello,
        [
          `The dispute on the deal "${deal}" was resolved: ${str(data, "outcome").replaceAll("_", " ")}.`,
          ...(data.resolution_note ? [`Note: ${str(data, "resolution_note")}`] : []),
        ],
        { label: "See your disputes", url: `${origin}/disputes` },
      );
    case "weekly_digest":
      return weeklyDigest(data, hello, origin);
    case "payout_statement": {
      const amounts = (data.amounts as { currency: string; amount: string }[] | undefined) ?? [];
      const period = `${str(data, "period_start")} to ${str(data, "period_end")}`;
      return compose(
        `Your statement for ${period} is ready`,
        hello,
        [
          `Your statement for ${period} is ready; it will be paid on ${str(data, "pay_date")}.`,
          ...amounts.map((a) => `Amount: ${formatAmount(a.currency, a.amount)}`),
        ],
        { label: "See your statement", url: `${origin}/statements` },
      );
    }
    case "plan_acknowledgement":
      return compose(
        `Please read and acknowledge your plan: ${str(data, "plan_name")}`,
        hello,
        [
          `You are on the commission plan "${str(data, "plan_name")}" (version ${str(data, "plan_version")}).`,
          "Please read its terms and acknowledge that you received them. Your pay does not wait for it.",
        ],
        {
          label: "Read and acknowledge your plan",
          url: `${origin}/acknowledgements/${encodeURIComponent(str(data, "acknowledgement_id"))}`,
        },
      );
  }
}
