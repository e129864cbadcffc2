import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareDecimals,
  differenceOfMoney,
  percentToRatio,
  plainDecimal,
  ratioToPercent,
  sumMoney,
} from "../../web/src/lib/money.js";

describe("the console's money arithmetic is exact to the cent", () => {
  it.each([
    [[0.1, 0.2], 0.3],
    [[1234.56, 0.44, -1235], 0],
    [[19.99, 19.99, 19.99], 59.97],
    [[], 0],
    [[99999999999.99, 0.01], 100000000000],
  ])("sumMoney(%j) = %d", (amounts, total) => {
    expect(sumMoney(amounts)).toBe(total);
  });

  it.each([
    [1000, 999.99, 0.01],
    [0.3, 0.1, 0.2],
    [150, 4200.75, -4050.75],
  ])("differenceOfMoney(%d, %d) = %d", (a, b, delta) => {
    expect(differenceOfMoney(a, b)).toBe(delta);
  });
});

describe("percents typed and the ratios the API takes move the decimal point in the text, never through a float", () => {
  it.each([
    ["13", "0.13"],
    ["0.07", "0.0007"], // 0.07 / 100 is 0.0007000000000000001
    ["57", "0.57"],
    ["150", "1.5"],
    ["12.50", "0.125"],
    [" 7 ", "0.07"],
    ["0", "0"],
    ["-0", "0"],
    [".5", "0.005"],
    ["100000", "1000"],
    ["-2.5", "-0.025"],
    ["", null],
    ["ten", null],
    ["1e1", null],
    ["1.2.3", null],
  ])("percentToRatio(%j) = %j", (percent, ratio) => {
    expect(percentToRatio(percent)).toBe(ratio);
  });

  it.each([
    [0.13, "13"],
    [0.57, "57"], // 0.57 * 100 is 56.99999999999999
    [0.0007, "0.07"],
    [1.5, "150"],
    [1.1, "110"], // 1.1 * 100 is 110.00000000000001
    [0, "0"],
    [1e-7, "0.00001"],
    ["0.145", "14.5"],
  ])("ratioToPercent(%j) = %j", (ratio, percent) => {
    expect(ratioToPercent(ratio)).toBe(percent);
  });

  it("a percent with at most 4 decimals goes to a ratio and back as typed (in one spelling)", () => {
    fc.assert(
      fc.property(fc.nat({ max: 100_000_000 }), fc.nat({ max: 4 }), (digits, places) => {
        const padded = String(digits).padStart(places + 1, "0");
        const typed = places ? `${padded.slice(0, -places)}.${padded.slice(-places)}` : padded;
        const ratio = percentToRatio(typed)!;
        // What JSON carries is the double nearest the ratio: its shortest text is the ratio again.
        expect(String(Number(ratio))).toBe(ratio);
        expect(ratioToPercent(Number(ratio))).toBe(plainDecimal(typed));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ["1", "1.0", 0],
    ["1.5", "1.25", 1],
    ["99.9999", "100", -1],
    ["-1", "0", -1],
    ["120", "120.0000", 0],
  ])("compareDecimals(%j, %j) = %d", (a, b, order) => {
    expect(compareDecimals(a, b)).toBe(order);
  });
});
