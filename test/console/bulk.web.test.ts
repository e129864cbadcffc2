// Type-checked with the console (web/tsconfig.json: *.web.test.ts), as it imports console code with its imports.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../web/src/api/errors.js";
import { runBulk } from "../../web/src/lib/bulk.js";

// The console's bulk runner (web/src/lib/bulk.ts): one request and Idempotency-Key per record, failures
// kept by record, a 429 retried once after its Retry-After with the same key.

const limited = (retryAfter?: number) =>
  new ApiError(429, "rate_limited", "Too many requests", "req_429", [], retryAfter);

describe("runBulk", () => {
  it("acts once per item with a key of its own, and keeps each failure with its message and request id", async () => {
    const keys = new Map<string, string>();
    const outcome = await runBulk(["a", "b", "c"], async (item, key) => {
      keys.set(item, key);
      if (item === "b") throw new ApiError(409, "invalid_transition", "Deal is approved, not pending", "req_b");
    });
    expect(outcome.done.sort()).toEqual(["a", "c"]);
    expect(outcome.failed).toEqual([
      { item: "b", message: "Deal is approved, not pending", code: "invalid_transition", requestId: "req_b" },
    ]);
    expect(new Set(keys.values()).size).toBe(3);
  });

  it("retries a 429 once after its Retry-After, with the same Idempotency-Key", async () => {
    const calls: [string, string][] = [];
    const waits: number[] = [];
    const outcome = await runBulk(
      ["a", "b"],
      async (item, key) => {
        calls.push([item, key]);
        if (item === "a" && calls.filter(([i]) => i === "a").length === 1) throw limited(7);
      },
      undefined,
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(outcome.done.sort()).toEqual(["a", "b"]);
    expect(outcome.failed).toEqual([]);
    expect(waits).toEqual([7000]);
    const aKeys = calls.filter(([i]) => i === "a").map(([, k]) => k);
    expect(aKeys).toHaveLength(2);
    expect(aKeys[0]).toBe(aKeys[1]);
  });

  it("keeps a second 429 as the record's failure, waits 1 s without Retry-After and at most 60 s", async () => {
    const waits: number[] = [];
    const pause = async (ms: number) => {
      waits.push(ms);
    };
    const twice = await runBulk(["a"], async () => Promise.reject(limited()), undefined, pause);
    expect(twice.failed).toEqual([
      { item: "a", message: "Too many requests", code: "rate_limited", requestId: "req_429" },
    ]);
    expect(waits).toEqual([1000]);
    await runBulk(["b"], async () => Promise.reject(limited(3600)), undefined, pause);
    expect(waits).toEqual([1000, 60_000]);
  });

  it("does not retry other errors", async () => {
    let calls = 0;
    const outcome = await runBulk(["a"], async () => {
      calls++;
      throw new ApiError(503, "unavailable", "Try later", "req_503", [], 5);
    });
    expect(calls).toBe(1);
    expect(outcome.failed[0]?.code).toBe("unavailable");
  });
});
