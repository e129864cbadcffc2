import { afterAll, beforeAll, expect, vi } from "vitest";
import { batchUsers } from "../src/commissions/testing.js";

/**
 * Test files share their worker's process (vitest.config.ts `isolate: false`), so what a file changes in
 * the process it must put back: this setup file fails the file that did not, naming what it left behind,
 * instead of letting some later file in the same worker fail for it.
 */
// Not "exit": pino's destinations share one exit listener (on-exit-leak-free), added with the first.
const PROCESS_EVENTS = ["beforeExit", "SIGINT", "SIGTERM", "uncaughtException", "unhandledRejection", "warning"];
const originalFetch = globalThis.fetch;

/** The recalculation job's batch size, read through what it does (tests lower it with setBatchCredits). */
function usersPerBatch(): number {
  const users = Array.from({ length: 20_000 }, (_, i) => ({ user_id: String(i), credits: 1 }));
  return batchUsers(users)[0]!.length;
}

function processState() {
  return {
    env: { ...process.env },
    cwd: process.cwd(),
    listeners: Object.fromEntries(PROCESS_EVENTS.map((event) => [event, process.listenerCount(event)])),
    fetchReplaced: globalThis.fetch !== originalFetch,
    fakeTimers: vi.isFakeTimers(),
    usersPerBatch: usersPerBatch(),
  };
}

let before: ReturnType<typeof processState>;
beforeAll(() => {
  before = processState();
});
afterAll(() => {
  expect(processState(), "this file left the shared worker process changed").toEqual(before);
});
