// Type-checked with the console (web/tsconfig.json: *.web.test.ts), as it imports console code with its imports.
import { describe, expect, it } from "vitest";
import { approvalQuestion } from "../../web/src/pages/approvals/approval-question.js";

// The approval queue asks before it approves (issue #30): the count, the exact total and what approving does.

const deal = (opportunity_name: string, amount: number, currency = "USD") => ({
  opportunity_name,
  commission_totals: [{ currency, amount }],
});

describe("approvalQuestion", () => {
  it("counts the deals and adds their commissions exactly, to the cent", () => {
    const twelve = Array.from({ length: 12 }, (_, i) => deal(`Deal ${i}`, i === 0 ? 4310 - 11 * 0.1 : 0.1));
    expect(approvalQuestion(twelve)).toBe("Approve 12 deals, $4,310.00 commission? Approving locks their lines.");
  });

  it("names a single deal", () => {
    expect(approvalQuestion([deal("Acme renewal", 1234.5)])).toBe(
      "Approve Acme renewal, $1,234.50 commission? Approving locks its lines.",
    );
  });

  it("keeps one sum per currency", () => {
    expect(approvalQuestion([deal("A", 10, "USD"), deal("B", 5.25, "EUR"), deal("C", 0.75, "EUR")])).toBe(
      "Approve 3 deals, $10.00 + €6.00 commission? Approving locks their lines.",
    );
  });
});
