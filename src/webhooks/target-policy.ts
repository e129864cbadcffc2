import { promises as dns } from "node:dns";
import { isLoopback, parseHostLiteral, refusalReason } from "./address-policy.js";

/** Resolves a DNS name to every address it has; shaped like `dns.promises.lookup(host, { all: true })`. */
export type Lookup = (hostname: string) => Promise<ReadonlyArray<{ address: string }>>;

export const defaultLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true });

export interface TargetPolicy {
  /** `CTS_WEBHOOK_ALLOW_HOSTS` entries, `host[:port]`: loopback targets exempt from the public-unicast rule. */
  allowHosts: readonly string[];
  /** `CTS_WEBHOOK_ALLOW_HTTP=1`: `http` is accepted, for exempt targets only. */
  allowHttp: boolean;
  lookup?: Lookup;
}

interface AllowEntry {
  host: string;
  port: number | null;
}

/** One target as the connection sees it: normalized host, scheme without colon, effective port. */
export interface Target {
  host: string;
  scheme: string;
  port: number;
}

function splitHostPort(entry: string): { host: string; port: string | null } {
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ?? null };
  const colons = entry.split(":").length - 1;
  if (colons === 1) {
    const at = entry.lastIndexOf(":");
    return { host: entry.slice(0, at), port: entry.slice(at + 1) };
  }
  return { host: entry, port: null };
}

export function normalizeHost(host: string): string {
  return parseHostLiteral(host) ?? host.toLowerCase().replace(/\.$/, "");
}

/** Parses one `host[:port]` entry; throws with a message naming the entry when it is malformed. */
function parseAllowEntry(entry: string): AllowEntry {
  const { host, port } = splitHostPort(entry.trim());
  const portNumber = port === null ? null : Number(port);
  if (portNumber !== null && !(/^\d+$/.test(port ?? "") && portNumber >= 1 && portNumber <= 65535)) {
    throw new TypeError(`${entry}: the port must be a number from 1 to 65535`);
  }
  if (host === "") throw new TypeError(`${entry}: the host is empty`);
  return { host: normalizeHost(host), port: portNumber };
}

export function isExempt(target: Target, allowHosts: readonly string[]): boolean {
  return allowHosts.some((entry) => {
    try {
      const allowed = parseAllowEntry(entry);
      return allowed.host === target.host && (allowed.port === null || allowed.port === target.port);
    } catch {
      return false;
    }
  });
}

/** Scheme and port rules, which need no lookup; null when the target passes them. */
export function shapeRefusal(target: Target, exempt: boolean, allowHttp: boolean): string | null {
  if (target.scheme === "http") {
    if (!exempt || !allowHttp) {
      return "url must use https (http is accepted only for CTS_WEBHOOK_ALLOW_HOSTS targets with CTS_WEBHOOK_ALLOW_HTTP=1)";
    }
  } else if (target.scheme !== "https") {
    return `url must use https, not ${target.scheme}`;
  }
  if (target.port !== 443 && target.port < 1024) return `url port must be 443 or 1024 and above, not ${target.port}`;
  return null;
}

/** Why `address` may not be connected to for this target, or null. Exempt targets accept loopback only. */
export function addressRefusal(address: string, exempt: boolean): string | null {
  if (!exempt) return refusalReason(address);
  return isLoopback(address) ? null : `${address} is not loopback (CTS_WEBHOOK_ALLOW_HOSTS exempts loopback only)`;
}

export type Resolution = { addresses: string[]; refusal: null } | { addresses: null; refusal: string };

/**
 * Resolves the target host (an IP literal resolves to itself) and checks every address; the
 * addresses are returned so the caller connects to exactly what was checked.
 */
export async function resolveChecked(host: string, exempt: boolean, lookup: Lookup): Promise<Resolution> {
  let addresses: string[];
  const literal = parseHostLiteral(host);
  if (literal !== null) {
    addresses = [literal];
  } else {
    try {
      addresses = (await lookup(host)).map((entry) => entry.address);
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).message;
      return { addresses: null, refusal: `${host} could not be resolved (${code})` };
    }
    if (addresses.length === 0) return { addresses: null, refusal: `${host} resolved to no addresses` };
  }
  for (const address of addresses) {
    const refusal = addressRefusal(address, exempt);
    if (refusal !== null) {
      const via = literal === null ? `${host} resolves to ${address}: ` : "";
      return { addresses: null, refusal: `${via}${refusal}` };
    }
  }
  return { addresses, refusal: null };
}

export function targetOf(url: URL): Target {
  const scheme = url.protocol.replace(/:$/, "");
  const port = url.port === "" ? (scheme === "http" ? 80 : 443) : Number(url.port);
  return { host: normalizeHost(url.hostname), scheme, port };
}

function isLoopbackName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || isLoopback(host);
}

function unlistedLoopbackMessage(target: Target, allowHosts: readonly string[]): string {
  const host = target.host.includes(":") ? `[${target.host}]` : target.host;
  return (
    `${host}:${target.port} is a loopback target but is not listed in CTS_WEBHOOK_ALLOW_HOSTS (${allowHosts.join(", ")}); ` +
    "entries match the host and port as written (localhost, 127.0.0.1 and [::1] are different entries)"
  );
}

/**
 * Why `url` is not an acceptable webhook target (scheme, port, credentials, then every address its
 * host resolves to), or null. For 422 at subscription create/update; delivery checks again at connect.
 */
export async function validateTargetUrl(url: string, policy: TargetPolicy): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url is not a valid absolute URL";
  }
  if (parsed.hostname === "") return "url must be an https URL with a host, such as https://example.com/hooks";
  if (parsed.username !== "" || parsed.password !== "") return "url must not contain credentials";
  const target = targetOf(parsed);
  const exempt = isExempt(target, policy.allowHosts);
  if (!exempt && policy.allowHosts.length > 0 && isLoopbackName(target.host)) {
    // Say what listing it would still leave wrong, else that it is not listed: not "must use https".
    return shapeRefusal(target, true, policy.allowHttp) ?? unlistedLoopbackMessage(target, policy.allowHosts);
  }
  const shape = shapeRefusal(target, exempt, policy.allowHttp);
  if (shape !== null) return shape;
  const resolution = await resolveChecked(target.host, exempt, policy.lookup ?? defaultLookup);
  return resolution.refusal;
}

/**
 * Start-up check of `CTS_WEBHOOK_ALLOW_HOSTS`: one message per entry that is malformed or is not,
 * or does not resolve only to, loopback addresses.
 */
export async function checkAllowHosts(list: readonly string[], lookup: Lookup = defaultLookup): Promise<string[]> {
  const problems: string[] = [];
  for (const entry of list) {
    let host: string;
    try {
      host = parseAllowEntry(entry).host;
    } catch (error) {
      problems.push(`CTS_WEBHOOK_ALLOW_HOSTS: ${(error as Error).message}`);
      continue;
    }
    const resolution = await resolveChecked(host, true, lookup);
    if (resolution.refusal !== null) problems.push(`CTS_WEBHOOK_ALLOW_HOSTS: ${entry}: ${resolution.refusal}`);
  }
  return problems;
}
