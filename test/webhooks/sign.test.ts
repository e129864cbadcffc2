import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, secretHint, signatureHeaders, signPayload } from "../../src/webhooks/testing.js";

const id = "evt_01J9ZC4Q7X";
const body = JSON.stringify({ id, type: "deal.approved", created_at: "2025-01-01T00:00:00Z", data: { object: {} } });
const now = () => Math.floor(Date.now() / 1000);

describe("generateWebhookSecret", () => {
  it("is whsec_ + base64 of 32 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe("signPayload, verified by the standardwebhooks receiver library", () => {
  it("verifies with the secret as a receiver holds it", () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now(), body, secrets: [secret] });
    expect(Object.keys(headers).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("signs with both secrets during rotation, and each secret alone verifies", () => {
    const previous = generateWebhookSecret();
    const current = generateWebhookSecret();
    const headers = signatureHeaders({ id, timestamp: now(), body, secrets: [current, previous] });
    const signatures = headers["webhook-signature"]!.split(" ");
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature.startsWith("v1,")).toBe(true);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("fails verification for a tampered body, id or timestamp", () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    const headers = signatureHeaders({ id, timestamp, body, secrets: [secret] });
    const receiver = new Webhook(secret);
    expect(() => receiver.verify(body.replace("approved", "rejected"), headers)).toThrow();
    expect(() => receiver.verify(body, { ...headers, "webhook-id": "evt_other" })).toThrow();
    expect(() => receiver.verify(body, { ...headers, "webhook-timestamp": String(timestamp - 1) })).toThrow();
  });

  it("matches the library's own signature byte for byte", () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    const expected = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
    expect(signPayload({ id, timestamp, body, secrets: [secret] })).toBe(expected);
  });

  it("refuses secrets that are not whsec_ and an empty secret list", () => {
    expect(() => signPayload({ id, timestamp: now(), body, secrets: [] })).toThrow(/at least one/);
    expect(() => signPayload({ id, timestamp: now(), body, secrets: ["abc"] })).toThrow(/whsec_/);
  });
});

describe("secretHint", () => {
  it("shows the prefix and the last 4 characters only", () => {
    const secret = generateWebhookSecret();
    const hint = secretHint(secret);
    expect(hint).toBe(`whsec_…${secret.slice(-4)}`);
    expect(hint.replace("whsec_…", "")).toHaveLength(4);
  });
});
