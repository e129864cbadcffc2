import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { createKey as createKeyService } from "../src/api-keys/index.js";
import type { Scope } from "../src/context.js";
import { ErrorBody } from "../src/errors.js";
import { enqueueJob, type Job } from "../src/jobs/queue.js";
import { CreateUserBody, createUser as createUserService, type User } from "../src/users/index.js";
import type { TestApp } from "./harness.js";

/** Small factories: every test builds the records it needs, never relying on seeded ids. */

let sequence = 0;

/** A value no other test (or test file sharing a PostgreSQL server) will produce. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${randomBytes(4).toString("hex")}`;
}

export function uniqueEmail(prefix = "user"): string {
  return `${unique(prefix)}@example.com`;
}

/** A user created by the owner directly through the service (no request, no rate limit spent). */
export async function createUser(t: TestApp, overrides: Partial<CreateUserBody> = {}): Promise<User> {
  const body = CreateUserBody.parse({ name: unique("User"), email: uniqueEmail(), ...overrides });
  return createUserService(t.ownerCtx(), body);
}

export interface KeyOptions {
  name?: string;
  expires_at?: string | null;
}

/** A new API key of that scope, with its raw `key` (shown once). */
export async function createApiKey(t: TestApp, scope: Scope, options: KeyOptions = {}) {
  return createKeyService(t.ownerCtx(), { name: options.name ?? unique(`${scope} key`), scope, ...options });
}

/** A queued background job (nothing runs it: test apps start no worker). */
export async function createJob(t: TestApp, kind = "test.noop"): Promise<Job> {
  const now = t.clock?.now() ?? new Date();
  return t.db.db.transaction().execute((tx) => enqueueJob(tx, now, { kind, payload: {} }));
}

/** A well-formed key (`cts_<env>_` + 43 base62 characters) that no database holds. */
export function craftKey(environment: string): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const secret = Array.from(randomBytes(43), (b) => alphabet[b % 62]).join("");
  return `cts_${environment}_${secret}`;
}

/** An id of the right shape that was never issued. */
export function unknownId(prefix: string): string {
  return `${prefix}_00000000000000000000000000`;
}

/** An error body read with the contract's own schema: a missing, mistyped or extra field fails the test. */
export function parseErrorBody(body: unknown): ErrorBody["error"] {
  const parsed = ErrorBody.parse(body);
  expect(body, "the error body holds only what ErrorBody states").toEqual(parsed);
  return parsed.error;
}

/** The error of an error response, read with the contract's own schema. */
export function errorOf(res: LightMyRequestResponse): ErrorBody["error"] {
  return parseErrorBody(res.json());
}

let ipSequence = 0;

/** A client address of its own, so the failed-auth limiter (30 per IP per minute) never interferes. */
export function freshIp(): string {
  ipSequence += 1;
  return `10.${(ipSequence >> 16) & 255}.${(ipSequence >> 8) & 255}.${ipSequence & 255}`;
}
