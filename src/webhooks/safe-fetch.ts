import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { Agent, buildConnector, Dispatcher } from "undici";
import {
  addressRefusal,
  defaultLookup,
  isExempt,
  type Lookup,
  normalizeHost,
  resolveChecked,
  shapeRefusal,
  type Target,
  targetOf,
} from "./target-policy.js";

export { type Lookup, validateTargetUrl } from "./target-policy.js";

// undici (~110 modules, ~0.25 s to load) is required with the first delivery, not at every start-up.
const load = createRequire(import.meta.url);
let loaded: typeof import("undici") | undefined;
const undici = (): typeof import("undici") => {
  loaded ??= load("undici") as typeof import("undici");
  return loaded;
};

const DELIVERY_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 20 * 1024;

export type SafeFetchErrorKind = "refused" | "timeout" | "network";

/** A delivery that got no HTTP response: the target was refused, timed out, or the network failed. */
export class SafeFetchError extends Error {
  constructor(
    readonly reason: string,
    readonly kind: SafeFetchErrorKind = "refused",
  ) {
    super(reason);
    this.name = "SafeFetchError";
  }
}

export interface SafeAgentOptions {
  lookup?: Lookup;
  allowHosts: readonly string[];
  allowHttp: boolean;
  /** CA certificates (PEM) trusted instead of the system roots: for tests with their own receiver certificate. */
  ca?: string | Buffer;
}

export interface ConnectPolicy {
  lookup: Lookup;
  allowHosts: readonly string[];
  allowHttp: boolean;
}

export interface SafeAgent {
  readonly dispatcher: Agent;
  readonly policy: ConnectPolicy;
  close(): Promise<void>;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  /** The first 20 KB of the body (UTF-8); the rest is never read. */
  bodyText: string;
  durationMs: number;
}

/** Errors worth trying the next checked address for; anything else (TLS, protocol) is final. */
const RETRY_NEXT_ADDRESS = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function dial(base: buildConnector.connector, options: buildConnector.Options, address: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // hostname = the checked address, so nothing resolves again; host still drives SNI and the certificate check.
    base({ ...options, hostname: address }, (error, socket) => (error ? reject(error) : resolve(socket as Socket)));
  });
}

async function dialChecked(base: buildConnector.connector, options: buildConnector.Options, addresses: string[]) {
  let lastError: unknown;
  for (const address of addresses) {
    try {
      return await dial(base, options, address);
    } catch (error) {
      lastError = error;
      if (!RETRY_NEXT_ADDRESS.has((error as { code?: string }).code ?? "")) break;
    }
  }
  throw lastError;
}

function connectTarget(options: buildConnector.Options): Target {
  const scheme = options.protocol.replace(/:$/, "");
  const port = options.port ? Number(options.port) : scheme === "http" ? 80 : 443;
  return { host: normalizeHost(options.hostname), scheme, port };
}

async function connectChecked(
  base: buildConnector.connector,
  options: buildConnector.Options,
  policy: ConnectPolicy,
): Promise<Socket> {
  const target = connectTarget(options);
  const exempt = isExempt(target, policy.allowHosts);
  const shape = shapeRefusal(target, exempt, policy.allowHttp);
  if (shape !== null) throw new SafeFetchError(shape);
  const resolution = await resolveChecked(target.host, exempt, policy.lookup);
  if (resolution.refusal !== null) throw new SafeFetchError(`refused at connect: ${resolution.refusal}`);
  const socket = await dialChecked(base, options, resolution.addresses);
  const remote = socket.remoteAddress;
  const refusal = remote === undefined ? "the socket has no remote address" : addressRefusal(remote, exempt);
  if (refusal !== null) {
    socket.destroy();
    throw new SafeFetchError(`refused after connect: ${refusal}`);
  }
  return socket;
}

/**
 * An undici `connect` function that resolves the host itself, refuses unless every address passes
 * the policy, dials a checked address and checks the connected socket's remote address again.
 * `base` is undici's own connector; tests may pass a fake one.
 */
export function createSafeConnector(
  policy: ConnectPolicy,
  base: buildConnector.connector = undici().buildConnector({}),
): buildConnector.connector {
  return (options, callback) => {
    connectChecked(base, options, policy).then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error, null),
    );
  };
}

/** The one dispatcher every webhook delivery goes through. */
export function createSafeAgent(options: SafeAgentOptions): SafeAgent {
  const policy: ConnectPolicy = {
    lookup: options.lookup ?? defaultLookup,
    allowHosts: [...options.allowHosts],
    allowHttp: options.allowHttp,
  };
  let dispatcher: Agent | undefined;
  return {
    policy,
    // Made on first use (the first delivery), so undici loads then.
    get dispatcher(): Agent {
      if (dispatcher === undefined) {
        const { Agent: UndiciAgent, buildConnector: connector } = undici();
        const base = connector(options.ca === undefined ? {} : { ca: options.ca });
        dispatcher = new UndiciAgent({ connect: createSafeConnector(policy, base) });
      }
      return dispatcher;
    },
    close: async () => dispatcher?.close(),
  };
}

async function readCapped(body: Dispatcher.ResponseData["body"], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= limit) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

function flattenHeaders(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function toSafeFetchError(error: unknown, timedOut: boolean, timeoutMs: number): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const code = (error as { code?: string }).code;
  if (timedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new SafeFetchError(`no complete response within ${timeoutMs} ms`, "timeout");
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SafeFetchError(code ? `${code}: ${message}` : message, "network");
}

function checkUrlShape(agent: SafeAgent, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SafeFetchError("url is not a valid absolute URL");
  }
  if (parsed.username !== "" || parsed.password !== "") throw new SafeFetchError("url must not contain credentials");
  const target = targetOf(parsed);
  const refusal = shapeRefusal(target, isExempt(target, agent.policy.allowHosts), agent.policy.allowHttp);
  if (refusal !== null) throw new SafeFetchError(refusal);
}

/**
 * POSTs once through the safe agent. Redirects are not followed (a 3xx is returned like any
 * status); the whole exchange, body included, must finish within `timeoutMs`.
 */
export async function safePost(
  agent: SafeAgent,
  url: string,
  options: { headers: Record<string, string>; body: string; timeoutMs?: number },
): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  checkUrlShape(agent, url);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await undici().request(url, {
      dispatcher: agent.dispatcher,
      method: "POST",
      headers: options.headers,
      body: options.body,
      signal: controller.signal,
    });
    const bodyText = await readCapped(response.body, MAX_RESPONSE_BYTES);
    const durationMs = Math.round(performance.now() - started);
    return { status: response.statusCode, headers: flattenHeaders(response.headers), bodyText, durationMs };
  } catch (error) {
    throw toSafeFetchError(error, controller.signal.aborted, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}
