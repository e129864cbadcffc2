import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createUser, freshIp, unique } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { rawExchange } from "../http/raw-client.js";
import { urlOf, WRITE_METHODS } from "../input/operations.js";
import { listenPort, rawRequest } from "../raw-http.js";
import { type Operation, operations } from "../route-case.js";
import { signedInAs } from "../sessions.js";

/**
 * #26: every answer an operation gives is one its document declares. Each class of malformed request
 * goes to every operation of the served document (so a new route is covered by itself); a status, or a
 * contract header, that the operation does not declare for that status fails, naming operation and class.
 */

const t: TestApp = await createTestApp({ clock: new TestClock(), requestTimeoutSeconds: 1 });
const OPS = await operations(t);
const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json() as OpenAPIV3_1.Document;
let port = 0;
let admin = "";
let adminUser: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  port = await listenPort(t);
  admin = (await createApiKey(t, "admin")).key;
  adminUser = await createUser(t, { role: "admin" });
});
afterAll(async () => t.close());

interface Answer {
  status: number;
  headers: Record<string, unknown>;
}

/** Headers of the contract whose presence on an answer the document must declare for its status. */
const CONTRACT_HEADERS = [
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "Allow",
  "Idempotent-Replayed",
  "Content-Disposition",
  "Link",
];

type Response = OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject;

function documented(op: Operation, status: number): OpenAPIV3_1.ResponseObject | undefined {
  const item = doc.paths?.[op.path] as Record<string, OpenAPIV3_1.OperationObject> | undefined;
  const operation = item?.[op.method.toLowerCase()];
  const response = operation?.responses?.[String(status)] as Response | undefined;
  if (response && "$ref" in response) {
    return doc.components?.responses?.[response.$ref.split("/").pop()!] as OpenAPIV3_1.ResponseObject;
  }
  return response;
}

/** What the document does not declare of this answer, as `METHOD path (class): …` lines. */
function undeclared(op: Operation, kind: string, answer: Answer): string[] {
  const where = `${op.method} ${op.path} (${kind})`;
  const response = documented(op, answer.status);
  if (!response) return [`${where}: status ${answer.status}`];
  const names = Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
  return CONTRACT_HEADERS.filter((h) => answer.headers[h.toLowerCase()] !== undefined)
    .filter((h) => !names.includes(h.toLowerCase()))
    .map((h) => `${where}: header ${h} on ${answer.status}`);
}

/** The caller's credentials: the admin key, a fresh admin session for session-only routes, none for public ones. */
async function credentials(op: Operation, method = op.method): Promise<Record<string, string>> {
  if (op.access === "public") return {};
  if (op.access === "key") return bearer(admin);
  return (await signedInAs(t, adminUser)).headers(method);
}

interface Sent {
  method?: string;
  url?: string;
  headers?: Record<string, string>;
  payload?: string;
  /** Leave the clock alone (the rate-limited class keeps its full window). */
  sameInstant?: boolean;
  /** Send no credentials. */
  anonymous?: boolean;
}

async function inject(op: Operation, sent: Sent = {}): Promise<Answer> {
  if (!sent.sameInstant) t.clock!.advance(1000); // a second per request keeps every key under 100 a minute
  const method = sent.method ?? op.method;
  const payload = sent.payload ?? (WRITE_METHODS.has(method) ? "{}" : undefined);
  const res = await t.app.inject({
    method: method as "GET",
    url: sent.url ?? urlOf(op),
    headers: {
      ...(sent.anonymous ? {} : await credentials(op, method)),
      ...(payload !== undefined ? { "content-type": "application/json" } : {}),
      ...sent.headers,
    },
    remoteAddress: freshIp(),
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, headers: res.headers };
}

/** Sends `send(op)` to every operation `applies` to, one after another; the undeclared answers. */
async function everyOperation(
  kind: string,
  send: (op: Operation) => Promise<Answer | Answer[] | string[]>,
  applies: (op: Operation) => boolean = () => true,
): Promise<string[]> {
  const problems: string[] = [];
  for (const op of OPS.filter(applies)) {
    for (const answer of [await send(op)].flat()) {
      problems.push(...(typeof answer === "string" ? [answer] : undeclared(op, kind, answer)));
    }
  }
  return problems;
}

/**
 * A method `op`'s path does not have, sent with a key (without one, any unknown route is 401). When its
 * URL is another operation's (GET /commissions/x_1 for POST /commissions/adjustments), that one answers.
 */
async function wrongMethod(op: Operation): Promise<string[]> {
  const taken = new Set(OPS.filter((o) => o.path === op.path).map((o) => o.method));
  const method = METHODS.find((m) => !taken.has(m as Operation["method"]))!;
  const url = urlOf(op);
  const matches = (o: Operation) => new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(url);
  const owner = OPS.find((o) => o.method === method && matches(o)) ?? op;
  const answer = await inject(op, { method, anonymous: true, headers: bearer(admin) });
  return undeclared(owner, "a method the path does not have", answer);
}

const hasBody = (op: Operation) => op.body !== undefined;
const isWrite = (op: Operation) => WRITE_METHODS.has(op.method);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
const huge = JSON.stringify({ text: "a".repeat(1024 * 1024 + 16) });

describe("#26 every operation declares each answer to a malformed request (status and contract headers)", () => {
  it("covers the operations of the document", () => {
    expect(OPS.length).toBeGreaterThan(60);
  });

  it.each<[string, (op: Operation) => Promise<Answer | Answer[] | string[]>, ((op: Operation) => boolean)?]>([
    ["no key or session", (op) => inject(op, { anonymous: true })],
    ["malformed JSON", (op) => inject(op, { payload: '{"a":' })],
    ["JSON nested deeper than 64 levels", (op) => inject(op, { payload: deep })],
    [
      "a content type other than JSON",
      (op) => inject(op, { payload: "hello", headers: { "content-type": "text/plain" } }),
    ],
    ["a body over 1 MiB", (op) => inject(op, { payload: huge })],
    ["an unknown query parameter", (op) => inject(op, { url: urlOf(op, "x_1", "zz_unknown=1") })],
    ["a method the path does not have", (op) => wrongMethod(op)],
    [
      "a path parameter that is not UTF-8",
      (op) => inject(op, { url: urlOf(op).replace("x_1", "%E0%A4%A") }),
      (op) => op.pathParams.length > 0,
    ],
    [
      "an Idempotency-Key over 255 characters",
      (op) => inject(op, { headers: { "idempotency-key": "k".repeat(256) } }),
      isWrite,
    ],
    [
      "the replay of a refused request (same Idempotency-Key)",
      async (op) => {
        const headers = { "idempotency-key": unique("replay") };
        const payload = JSON.stringify({ zz_unknown: 1 });
        return [await inject(op, { headers, payload }), await inject(op, { headers, payload })];
      },
      isWrite,
    ],
  ])("%s", async (kind, send, applies) => {
    expect(await everyOperation(kind, send, applies)).toEqual([]);
  });

  it("the replay of a request that succeeded (same Idempotency-Key)", async () => {
    const op = OPS.find((o) => o.method === "POST" && o.path === "/api/v1/users")!;
    const headers = { "idempotency-key": unique("replay") };
    const payload = JSON.stringify({ name: "Ana Replay", email: `${unique("replay")}@example.com`, role: "rep" });
    const [first, replay] = [await inject(op, { headers, payload }), await inject(op, { headers, payload })];
    expect([first.status, replay.status, replay.headers["idempotent-replayed"]]).toEqual([201, 201, "true"]);
    expect(undeclared(op, "replayed success", replay)).toEqual([]);
  });

  it("over the key's rate limit", async () => {
    const { key } = await createApiKey(t, "admin");
    t.clock!.advance(61_000);
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: bearer(key) });
      expect(res.statusCode).toBe(200);
    }
    const problems = await everyOperation("over the rate limit", async (op) => {
      const answer = await inject(op, { sameInstant: true, anonymous: true, headers: bearer(key) });
      if (op.access !== "public") expect(answer.status, `${op.method} ${op.path}`).toBe(429);
      return answer;
    });
    t.clock!.advance(61_000);
    expect(problems).toEqual([]);
  });
});

/** Over a real socket: what `inject` would merge or never produce. */
function raw(op: Operation, headers: Record<string, string | string[]>): Promise<Answer> {
  t.clock!.advance(61_000);
  const body = WRITE_METHODS.has(op.method) ? "{}" : undefined;
  return rawRequest(port, { method: op.method, target: urlOf(op), headers, ...(body ? { body } : {}) });
}

describe("#26 … and to what only a real socket can send", () => {
  it("Authorization twice", async () => {
    const problems = await everyOperation("Authorization twice", (op) =>
      raw(op, { authorization: [`Bearer ${admin}`, `Bearer ${admin}`] }),
    );
    expect(problems).toEqual([]);
  });

  it("Idempotency-Key twice", async () => {
    const problems = await everyOperation("Idempotency-Key twice", async (op) =>
      raw(op, { ...(await credentials(op)), "idempotency-key": ["k-1", "k-2"] }),
    );
    expect(problems).toEqual([]);
  });

  it("a header section over 16 KiB, and a request that never arrives in full (1 s here)", async () => {
    const answers = await Promise.all(
      OPS.map(async (op) => {
        const target = urlOf(op);
        const big = await rawExchange(
          port,
          `${op.method} ${target} HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
        );
        const start = hasBody(op)
          ? `${op.method} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`
          : `${op.method} ${target} HTTP/1.1\r\nHost: x\r\n`;
        const slow = await rawExchange(port, start);
        return [...undeclared(op, "headers over 16 KiB", big!), ...undeclared(op, "never arrives in full", slow!)];
      }),
    );
    expect(answers.flat()).toEqual([]);
  }, 60_000);
});
