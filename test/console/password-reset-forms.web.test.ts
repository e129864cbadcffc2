// Type-checked with the console (web/tsconfig.json: *.web.test.ts), as it imports console code with its imports.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../web/src/api/errors.js";
import type { NotificationSettings } from "../../web/src/data/auth/queries.js";
import { changedKinds } from "../../web/src/pages/auth/notification-changes.js";
import { forgotPasswordProblems, resetPasswordProblems, retryIn } from "../../web/src/pages/auth/reset-problems.js";

// The "Forgot password?" and reset-password forms (issue #34): where each refusal of
// docs/notifications.md §4 is shown: on its field (422), as a link that cannot be used (404) with a new
// one to ask for, or above the form with when to try again (429) and the request id.

const refusal = (status: number, code: string, message: string, more: Partial<ApiError> = {}) =>
  new ApiError(status, code, message, more.requestId ?? "req_1", more.details, more.retryAfterSeconds);

describe("forgotPasswordProblems", () => {
  it("nothing before an answer", () => {
    expect(forgotPasswordProblems(null)).toEqual({});
  });

  it("a 422 about the email: on the email field, as a sentence", () => {
    const error = refusal(422, "validation_error", "Request body is invalid", {
      details: [{ param: "email", message: "must have at least 3 characters" }],
    });
    expect(forgotPasswordProblems(error)).toEqual({ email: "This email must have at least 3 characters." });
  });

  it("a 429: the server's message above the form, when to try again, the request id", () => {
    const error = refusal(429, "rate_limited", "Too many password reset requests from this address; retry later", {
      retryAfterSeconds: 540,
      requestId: "req_429",
    });
    expect(forgotPasswordProblems(error)).toEqual({
      alert: {
        message: "Too many password reset requests from this address; retry later",
        retry: "Try again in 9 minutes.",
        requestId: "req_429",
      },
    });
  });

  it("a 422 naming no field of the form, a 403 or a 5xx: above the form, without a retry time", () => {
    const error = refusal(422, "validation_error", "Request body is invalid", {
      details: [{ param: "name", message: "is not allowed" }],
    });
    expect(forgotPasswordProblems(error)).toEqual({
      alert: { message: "Request body is invalid", requestId: "req_1" },
    });
    expect(forgotPasswordProblems(refusal(503, "unavailable", "Try later"))).toEqual({
      alert: { message: "Try later", requestId: "req_1" },
    });
  });

  it("no answer at all: the error's own words", () => {
    expect(forgotPasswordProblems(new Error("The server cannot be reached."))).toEqual({
      alert: { message: "The server cannot be reached.", requestId: null },
    });
  });
});

describe("resetPasswordProblems", () => {
  it("a 404 (unknown, used, replaced or expired link): the server's words, in place of the form", () => {
    const error = refusal(404, "not_found", "This reset link expired; ask for a new link with “Forgot password?”");
    expect(resetPasswordProblems(error)).toEqual({
      linkRefused: "This reset link expired; ask for a new link with “Forgot password?”",
      password: [],
    });
  });

  it("a 422: each rule the password breaks, under the password field", () => {
    const error = refusal(422, "validation_error", "Request body is invalid", {
      details: [
        { param: "password", message: "must have at least 12 characters" },
        { param: "password", message: "is too easy to guess. Add another word or two." },
      ],
    });
    expect(resetPasswordProblems(error)).toEqual({
      password: [
        "This password must have at least 12 characters.",
        "This password is too easy to guess. Add another word or two.",
      ],
    });
  });

  it("a 409 (inactive account) and a 429: above the form; the 429 with when to try again", () => {
    const inactive = refusal(409, "conflict", "User usr_1 is inactive; an admin must reactivate them first");
    expect(resetPasswordProblems(inactive)).toEqual({
      password: [],
      alert: { message: "User usr_1 is inactive; an admin must reactivate them first", requestId: "req_1" },
    });
    const limited = refusal(429, "rate_limited", "Too many failed attempts; retry later", { retryAfterSeconds: 42 });
    expect(resetPasswordProblems(limited)).toEqual({
      password: [],
      alert: {
        message: "Too many failed attempts; retry later",
        retry: "Try again in 42 seconds.",
        requestId: "req_1",
      },
    });
  });
});

describe("retryIn", () => {
  it.each<[number | undefined, string | undefined]>([
    [undefined, undefined],
    [0, "Try again in 1 second."],
    [1, "Try again in 1 second."],
    [59, "Try again in 59 seconds."],
    [60, "Try again in 1 minute."],
    [61, "Try again in 2 minutes."],
    [900, "Try again in 15 minutes."],
  ])("%s s → %s", (seconds, words) => {
    expect(retryIn(seconds)).toBe(words);
  });
});

describe("changedKinds: the body of POST /me/notifications", () => {
  const saved: NotificationSettings = {
    email_configured: true,
    kinds: [
      { kind: "invitation", enabled: true, switchable: false },
      { kind: "password_reset", enabled: true, switchable: false },
      { kind: "deal_approved", enabled: true, switchable: true },
      { kind: "dispute_resolved", enabled: false, switchable: true },
    ],
  };

  it("only the switchable kinds whose switch differs from what is saved", () => {
    expect(changedKinds(saved, {})).toEqual({});
    expect(changedKinds(saved, { deal_approved: true, dispute_resolved: false })).toEqual({});
    expect(changedKinds(saved, { deal_approved: false, dispute_resolved: true })).toEqual({
      deal_approved: false,
      dispute_resolved: true,
    });
  });

  it("never a security kind (the server refuses one with 422)", () => {
    expect(changedKinds(saved, { password_reset: false, invitation: false })).toEqual({});
  });
});
