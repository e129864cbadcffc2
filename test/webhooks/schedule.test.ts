import { describe, expect, it } from "vitest";
import {
  judge,
  MAX_RETRY_AFTER_MS,
  nextStep,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  SCHEDULED_ATTEMPTS,
  withJitter,
} from "../../src/webhooks/testing.js";

const now = new Date("2026-11-22T10:00:00.000Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const H = 3_600_000;

describe("the retry schedule (API.md §6)", () => {
  it("is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts in all", () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    expect(SCHEDULED_ATTEMPTS).toBe(10);
  });

  it("jitter stays within ±20 % and is exact for a fixed random", () => {
    expect(withJitter(10_000, () => 0.5)).toBe(10_000);
    expect(withJitter(10_000, () => 0)).toBe(8_000);
    expect(withJitter(10_000, () => 0.999_999_9)).toBe(12_000);
    for (let i = 0; i < 1000; i++) {
      const d = withJitter(5_000, Math.random);
      expect(d).toBeGreaterThanOrEqual(4_000);
      expect(d).toBeLessThanOrEqual(6_000);
    }
  });

  it.each(RETRY_DELAYS_MS.map((delay, i) => [i + 1, delay]))("after failed attempt %i the next waits %i ms", (n, d) => {
    const step = nextStep(judge(500, undefined, now), n, 10, now, () => 0.5);
    expect(step).toEqual({ status: "pending", nextAttemptAt: at(d) });
  });

  it("the tenth failure is final; so is a 410 at any attempt", () => {
    expect(nextStep(judge(500, undefined, now), 10, 10, now, () => 0.5)).toEqual({ status: "failed" });
    expect(nextStep(judge(410, undefined, now), 1, 10, now, () => 0.5)).toEqual({ status: "failed" });
    expect(nextStep(judge(null, undefined, now), 3, 3, now, () => 0.5)).toEqual({ status: "failed" });
  });

  it.each([200, 201, 202, 204, 299])("%i is delivered", (status) => {
    expect(nextStep(judge(status, undefined, now), 1, 10, now, () => 0.5)).toEqual({ status: "succeeded" });
  });

  it.each([100, 199, 301, 302, 304, 307, 308, 400, 401, 404, 409, 429, 500, 502, 503])("%i is a failure", (status) => {
    expect(judge(status, undefined, now).succeeded).toBe(false);
  });
});

describe("Retry-After on 429 and 503", () => {
  it("reads seconds and HTTP dates; ignores what it cannot read", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter(at(90_000).toUTCString(), now)).toBe(90_000);
    expect(parseRetryAfter(at(-90_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("999999999", now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it("waits at least what the receiver asked, never less than the schedule", () => {
    const step = (status: number, retryAfter: string, attempt: number) =>
      nextStep(judge(status, retryAfter, now), attempt, 10, now, () => 0.5);
    expect(step(429, "120", 1)).toEqual({ status: "pending", nextAttemptAt: at(120_000) });
    expect(step(503, at(H).toUTCString(), 1)).toEqual({ status: "pending", nextAttemptAt: at(H) });
    expect(step(429, "1", 2)).toEqual({ status: "pending", nextAttemptAt: at(300_000) });
    expect(step(500, "120", 1)).toEqual({ status: "pending", nextAttemptAt: at(5_000) });
  });
});
