// The e2e suite's own API client: plain fetch with a key (seeding) or a cookie jar (a person), so the
// expected values a test compares the page with come from the API, never from constants.
import { readFileSync } from "node:fs";

export interface SeededUser {
  id: string;
  name: string;
  email: string;
  role: string;
  password: string;
}

export interface E2eState {
  url: string;
  adminKey: string;
  users: Record<
    "admin" | "director" | "lead" | "rita" | "ravi" | "paula" | "finance" | "yearly" | "monthly" | "capped",
    SeededUser
  >;
  planId: string;
  currency: string;
  period: string;
  deals: {
    ritaApproved: string;
    ritaPending: string;
    ritaPaid: string;
    paulaApproved: string;
    /** Rita's approved deal of last quarter that the deal spec disputes (other specs keep theirs as seeded). */
    ritaToDispute: string;
  };
  /** A yearly and a monthly rep under lead, and Yara's 60/40 split with Milo (seed.ts `seedPlanPeriods`). */
  planPeriods: {
    yearly: SeededUser;
    monthly: SeededUser;
    yearlyPlanId: string;
    monthlyPlanId: string;
    splitDeal: string;
  };
}

/** Each Playwright worker has a server and a seeded database of its own: the state of server `index`. */
export function stateFile(index: number): URL {
  return new URL(`../.e2e-state-${index}.json`, import.meta.url);
}

/** This worker's server (its parallel index, stable across a worker's restarts), with what the seed made. */
export function state(): E2eState {
  return JSON.parse(readFileSync(stateFile(Number(process.env.TEST_PARALLEL_INDEX ?? 0)), "utf8"));
}

/** A call with the admin key: the JSON body of a 2xx, or an error naming the status and body. */
export async function asAdmin<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const { url, adminKey } = state();
  return call<T>(url, method, path, { Authorization: `Bearer ${adminKey}` }, body);
}

export async function call<T>(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<T> {
  const send = () =>
    fetch(`${base}/api/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let res = await send();
  // The suite shares one admin key (100 requests per rolling minute, API.md §2): a 429 is refused before
  // anything runs, so waiting its Retry-After and sending again is what any client of the API does.
  for (let retries = 0; res.status === 429 && retries < 3; retries++) {
    const seconds = Math.min(60, Number(res.headers.get("retry-after")) || 1);
    await res.text();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    res = await send();
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
