import { isIPv4 } from "node:net";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Human names for the ranges ipaddr.js's `range()` reports; anything it calls "unicast" is checked further. */
const RANGE_LABELS: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  private: "private",
  reserved: "reserved",
  as112: "AS112 anycast",
  amt: "AMT anycast",
  uniqueLocal: "unique-local (fc00::/7)",
  ipv4Mapped: "IPv4-mapped (::ffff:0:0/96)",
  rfc6145: "IPv4-translated (::ffff:0:0:0/96)",
  rfc6052: "NAT64 (64:ff9b::/96, 64:ff9b:1::/48)",
  "6to4": "6to4 (2002::/16)",
  teredo: "Teredo (2001::/32)",
  benchmarking: "benchmarking",
  discard: "discard-only (100::/64)",
  deprecatedSiteLocal: "site-local (fec0::/10)",
  deprecatedOrchid: "ORCHID",
  orchid2: "ORCHIDv2",
  droneRemoteIdProtocolEntityTags: "DRIP",
  segmentRouting: "SRv6 SID (5f00::/16)",
  as112v6: "AS112 anycast",
};

/** Checked before `range()`, for a more precise message or for ranges ipaddr.js calls "unicast". */
const SPECIFIC_RANGES: [Address, number, string][] = (
  [
    ["0.0.0.0/8", 'reserved (0.0.0.0/8, "this network")'],
    ["192.0.0.0/24", "reserved (192.0.0.0/24, IETF protocol assignments)"],
    ["192.0.2.0/24", "documentation (192.0.2.0/24)"],
    ["198.51.100.0/24", "documentation (198.51.100.0/24)"],
    ["203.0.113.0/24", "documentation (203.0.113.0/24)"],
    ["198.18.0.0/15", "benchmarking (198.18.0.0/15)"],
    ["240.0.0.0/4", "reserved (240.0.0.0/4)"],
    ["2001:db8::/32", "documentation (2001:db8::/32)"],
    ["3fff::/20", "documentation (3fff::/20)"],
    ["::/96", "IPv4-compatible (::/96)"],
  ] as const
).map(([cidr, label]) => {
  const [range, bits] = ipaddr.parseCIDR(cidr);
  return [range, bits, label];
});

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * The IP address a URL host denotes, normalized (IPv6 without brackets), or null when the host is a
 * DNS name. IPv4 forms (`0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`) are read the way the WHATWG URL
 * parser — and so every HTTP client — reads them. Throws when no URL could carry the host.
 */
export function parseHostLiteral(host: string): string | null {
  const inner = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  // The URL parser would read "a@127.0.0.1" or "127%2e0%2e0%2e1" as an address: a bare host has none of these.
  if (inner === "" || /[/?#@\\%\s[\]]/.test(inner)) throw new TypeError(`${host} is not a valid host`);
  if (inner.includes(":")) {
    if (!ipaddr.IPv6.isValid(inner)) throw new TypeError(`${host} is not a valid host`);
    return ipaddr.IPv6.parse(inner).toString();
  }
  let hostname: string;
  try {
    hostname = new URL(`http://${inner}/`).hostname;
  } catch {
    throw new TypeError(`${host} is not a valid host`);
  }
  return isIPv4(hostname) ? hostname : null;
}

function parseAddress(address: string): Address | null {
  try {
    const literal = parseHostLiteral(address);
    return literal === null ? null : ipaddr.parse(literal);
  } catch {
    return null;
  }
}

function embeddedV4(ip: ipaddr.IPv6): string {
  const bytes = ip.toByteArray().slice(12);
  return bytes.join(".");
}

function specificLabel(ip: Address): string | null {
  for (const [range, bits, label] of SPECIFIC_RANGES) {
    if (range.kind() === ip.kind() && ip.match(range, bits)) return label;
  }
  return null;
}

/** Ranges too coarse to explain a refusal, or ("unicast") too generous; the specific table refines them. */
const CATCH_ALL_RANGES = new Set(["reserved", "unicast", "unspecified"]);

function classify(ip: Address): string | null {
  const range = ip.range();
  const allZero = ip.toByteArray().every((byte) => byte === 0);
  const specific = CATCH_ALL_RANGES.has(range) && !allZero ? specificLabel(ip) : null;
  if (specific !== null) return specific;
  if (range !== "unicast") return RANGE_LABELS[range] ?? range;
  if (ip.kind() === "ipv6" && !ip.match(GLOBAL_UNICAST_V6)) return "outside global unicast (2000::/3)";
  return null;
}

/** Ranges whose IPv6 address carries an IPv4 address in its last 32 bits; named in the message. */
const EMBEDS_V4 = new Set(["ipv4Mapped", "rfc6145", "rfc6052"]);

/**
 * Why `address` (an IP address in any form a URL host may take) is not an acceptable webhook
 * target, or null when it is public unicast. IPv4-mapped, -compatible and NAT64 forms are refused
 * whatever they embed: no legitimate target resolves to them.
 */
export function refusalReason(address: string): string | null {
  const ip = parseAddress(address);
  if (ip === null) return `${address} is not an IP address`;
  const label = classify(ip);
  if (label === null) return null;
  const shown = ip.toString() === address ? address : `${address} (${ip.toString()})`;
  const v6 = ip.kind() === "ipv6" ? (ip as ipaddr.IPv6) : null;
  const embeds = v6 && (EMBEDS_V4.has(v6.range()) || label.startsWith("IPv4-compatible"));
  const suffix = embeds && v6 ? `, embedding ${embeddedV4(v6)}` : "";
  return `${shown} is ${label}${suffix}`;
}

export function isPublicUnicast(address: string): boolean {
  return refusalReason(address) === null;
}

/** Loopback in either family, including an IPv4 loopback address in IPv4-mapped form. */
export function isLoopback(address: string): boolean {
  const ip = parseAddress(address);
  if (ip === null) return false;
  const plain =
    ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
  return plain.range() === "loopback";
}
