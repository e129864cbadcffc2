import { describe, expect, it } from "vitest";
import { parse } from "../../src/money/index.js";
import { netPayee, recoveryCap } from "../../src/payout-runs/testing.js";

/** API.md §13 "Netting per payee", pure: the worked figures and the truncation of the cap. */

const line = (kind: "plan" | "spiff" | "adjustment" | "clawback", amount: string) => ({ kind, amount });

describe("netting per payee", () => {
  it("P1 run 1: L −550.00 → recovered 0.00, net_pay 0.00, carried 550.00", () => {
    const lines = [
      line("plan", "1200.00"),
      line("spiff", "300.00"),
      line("adjustment", "-50.00"),
      line("clawback", "-2000.00"),
    ];
    expect(netPayee(lines, "0", "100", "USD")).toEqual({
      gross: {
        plan: "1200.00",
        spiff: "300.00",
        override: "0.00",
        adjustment: "-50.00",
        clawback: "-2000.00",
        draw_advance: "0.00",
        draw_recovery: "0.00",
      },
      line_count: 4,
      lines_total: "-550.00",
      positive_total: "1500.00",
      deficit_brought_forward: "0.00",
      recovery_cap: "1500.00",
      recovered: "0.00",
      net_pay: "0.00",
      deficit_carried_forward: "550.00",
    });
  });

  it.each([
    ["100", "900.00", "550.00", "350.00", "0.00"],
    ["50", "450.00", "450.00", "450.00", "100.00"],
    ["0", "0.00", "0.00", "900.00", "550.00"],
  ])("P1 run 2 at %s %%: cap %s, recovered %s, net_pay %s, carried %s", (percent, cap, recovered, net, carried) => {
    const n = netPayee([line("plan", "900.00")], "550.00", percent, "USD");
    expect([n.recovery_cap, n.recovered, n.net_pay, n.deficit_carried_forward]).toEqual([cap, recovered, net, carried]);
  });

  it("the cap is truncated to the cent: P 100.00 at 33.3333 % → 33.33 (and 66.6666 % → 66.66, not 66.67)", () => {
    expect(recoveryCap(parse("100.00"), "33.3333", "USD")).toEqual(parse("33.33"));
    expect(netPayee([line("plan", "100.00")], "500.00", "66.6666", "USD").recovery_cap).toBe("66.66");
    expect(netPayee([line("plan", "100.00")], "500.00", "33.3333", "USD")).toMatchObject({
      recovery_cap: "33.33",
      recovered: "33.33",
      net_pay: "66.67",
      deficit_carried_forward: "466.67",
    });
  });

  it("recovery never exceeds L: a small positive total behind a large deficit pays 0.00 and recovers all of L", () => {
    const n = netPayee([line("plan", "500.00"), line("adjustment", "-450.00")], "1000.00", "100", "USD");
    expect([n.lines_total, n.recovery_cap, n.recovered, n.net_pay, n.deficit_carried_forward]).toEqual([
      "50.00",
      "500.00",
      "50.00",
      "0.00",
      "950.00",
    ]);
  });
});
