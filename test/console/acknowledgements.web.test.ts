import { MantineProvider } from "@mantine/core";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PlanAcknowledgement } from "../../web/src/data/plan-acknowledgements/queries.js";
import { dateTime } from "../../web/src/lib/format.js";
import {
  AcknowledgementReceipt,
  AcknowledgementStatus,
  pendingText,
} from "../../web/src/pages/acknowledgements/receipt.js";

// The states of the plan acknowledgement pages: pending (what the person is asked, and that pay does
// not wait for it), acknowledged (who, when, which version, the SHA-256), and a document changed since.

const SHA = "a".repeat(64);
const pending: PlanAcknowledgement = {
  id: "pack_1",
  user_id: "usr_1",
  user_name: "Rita Rep",
  plan_id: "plan_1",
  plan_name: "Core AE plan",
  plan_version: 3,
  status: "pending",
  document_sha256: null,
  acknowledged_at: null,
  created_at: "2026-11-02T09:30:00.000Z",
};
const acknowledged: PlanAcknowledgement = {
  ...pending,
  status: "acknowledged",
  document_sha256: SHA,
  acknowledged_at: "2026-11-03T14:05:00.000Z",
};

const html = (element: ReactElement) =>
  renderToStaticMarkup(createElement(MantineProvider, null, element)).replace(/<style[^>]*>[\s\S]*?<\/style>/g, "");
/** What a person reads: blocks apart, inline text as it runs. */
const text = (markup: string) =>
  markup
    .replace(/<\/(p|div|h\d)>/g, " ")
    .replace(/<[^>]+>/g, "")
    .replaceAll("&#x27;", "'")
    .replace(/\s+/g, " ")
    .trim();

describe("plan acknowledgement states", () => {
  it("pending: no receipt; the person is asked to read, and told pay does not wait for it", () => {
    expect(html(createElement(AcknowledgementReceipt, { acknowledgement: pending }))).toBe("");
    expect(pendingText(pending, true)).toBe(
      "Read the plan below, then acknowledge that you received it. Acknowledging records that you read this version; it changes nothing in how your commissions are calculated or paid.",
    );
    expect(pendingText(pending, false)).toBe("Rita Rep has not acknowledged this plan version yet.");
    expect(text(html(createElement(AcknowledgementStatus, { status: "pending" })))).toBe("To acknowledge");
  });

  it("acknowledged: who, when, the plan version and the document's SHA-256", () => {
    const markup = html(createElement(AcknowledgementReceipt, { acknowledgement: acknowledged, currentSha256: SHA }));
    expect(text(markup)).toBe(
      `Acknowledged Rita Rep acknowledged Core AE plan, version 3 on ${dateTime(acknowledged.acknowledged_at!)}. SHA-256 of the document read: ${SHA}`,
    );
    expect(markup).toContain('data-testid="ack-sha256"');
    expect(text(html(createElement(AcknowledgementStatus, { status: "acknowledged" })))).toBe("Acknowledged");
  });

  it("acknowledged, then the document reads differently: both hashes are shown", () => {
    const now = "b".repeat(64);
    const shown = text(
      html(createElement(AcknowledgementReceipt, { acknowledgement: acknowledged, currentSha256: now })),
    );
    expect(shown).toContain(`SHA-256 of the document read: ${SHA}`);
    expect(shown).toContain(`The plan's document reads differently now (SHA-256 ${now}).`);
  });
});
