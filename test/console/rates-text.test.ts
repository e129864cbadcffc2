import { describe, expect, it } from "vitest";
import { parseRates } from "../../web/src/pages/exchange-rates/rates-text.js";

describe("parseRates: pasted code,rate lines", () => {
  it("reads codes and rates as the exact strings typed, skipping a header and blank lines", () => {
    expect(parseRates("code,rate\nEUR,0.920\n\n gbp , 0.79 \r\nJPY,151.2345000001\n")).toEqual({
      rates: { EUR: "0.920", GBP: "0.79", JPY: "151.2345000001" },
      problems: [],
    });
  });

  it("reports each line it cannot read by its number, before anything is sent", () => {
    const { problems } = parseRates("EUR,0.92\nEURO,1\nGBP;0.79\nCHF,1,2\nJPY,abc\nEUR,0.93\nCODE,RATE");
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(problems[0]!.message).toBe('Line 2: "EURO" is not a 3-letter currency code.');
    expect(problems[3]!.message).toBe('Line 5: "abc" is not a decimal rate, such as 0.92.');
    expect(problems[4]!.message).toBe("Line 6: EUR is already given on an earlier line.");
  });

  it("asks for at least one line when there is none but a header", () => {
    expect(parseRates("code,rate\n\n").problems).toEqual([
      { line: 0, message: 'Give at least one line "code,rate", such as "EUR,0.92".' },
    ]);
  });

  it("leaves range checks to the API: a zero or a long decimal passes through as typed", () => {
    expect(parseRates("EUR,0\nGBP,0.12345678901").rates).toEqual({ EUR: "0", GBP: "0.12345678901" });
  });
});
