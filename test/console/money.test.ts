import { describe, expect, it } from "vitest";
import { differenceOfMoney, sumMoney } from "../../web/src/lib/money.js";

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
