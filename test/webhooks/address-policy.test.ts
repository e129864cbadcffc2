import { describe, expect, it } from "vitest";
import { isLoopback, isPublicUnicast, parseHostLiteral, refusalReason } from "../../src/webhooks/testing.js";

describe("parseHostLiteral", () => {
  it.each([
    ["0x7f.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0x7f.0x0.0x0.0x1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["[::1]", "::1"],
    ["::1", "::1"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
    ["93.184.215.14", "93.184.215.14"],
  ])("%s denotes %s", (host, address) => {
    expect(parseHostLiteral(host)).toBe(address);
  });

  it("agrees with the WHATWG URL parser, which every HTTP client uses", () => {
    expect(new URL("https://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(new URL("https://2130706433/").hostname).toBe("127.0.0.1");
    expect(new URL("https://0177.0.0.1/").hostname).toBe("127.0.0.1");
    expect(new URL("https://127.1/").hostname).toBe("127.0.0.1");
  });

  it("returns null for DNS names, including ones that look numeric at the front", () => {
    expect(parseHostLiteral("example.com")).toBeNull();
    expect(parseHostLiteral("127.0.0.1.nip.io")).toBeNull();
    expect(parseHostLiteral("LOCALHOST")).toBeNull();
  });

  it("throws for hosts no URL could carry", () => {
    expect(() => parseHostLiteral("4294967296")).toThrow(/not a valid host/);
    expect(() => parseHostLiteral("[::zz]")).toThrow(/not a valid host/);
    expect(() => parseHostLiteral("a b")).toThrow(/not a valid host/);
    expect(() => parseHostLiteral("")).toThrow(/not a valid host/);
    expect(() => parseHostLiteral("evil.example@127.0.0.1")).toThrow(/not a valid host/);
    expect(() => parseHostLiteral("127%2e0%2e0%2e1")).toThrow(/not a valid host/);
    expect(() => parseHostLiteral("example.com/x")).toThrow(/not a valid host/);
    expect(refusalReason("fe80::1%eth0")).not.toBeNull();
  });
});

describe("refusalReason", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.254", "carrier-grade NAT"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved (240.0.0.0/4)"],
    ["0.1.2.3", "reserved (0.0.0.0/8"],
    ["192.0.0.8", "reserved (192.0.0.0/24"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.1", "benchmarking"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["2001:db8::1", "documentation"],
    ["::ffff:7f00:1", "IPv4-mapped"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["::7f00:1", "IPv4-compatible"],
    ["::808:808", "IPv4-compatible"],
    ["64:ff9b::a00:1", "NAT64"],
    ["64:ff9b:1::1", "NAT64"],
    ["2002:7f00:1::", "6to4"],
    ["2001::1", "Teredo"],
    ["100::1", "discard-only"],
    ["fec0::1", "site-local"],
    ["2001:2::1", "benchmarking"],
    ["4000::1", "outside global unicast"],
    ["192.88.99.1", "reserved"],
  ])("%s is refused as %s", (address, label) => {
    expect(refusalReason(address)).toContain(label);
    expect(isPublicUnicast(address)).toBe(false);
  });

  it("names the address it judged and what a translated form embeds", () => {
    expect(refusalReason("127.0.0.1")).toBe("127.0.0.1 is loopback");
    expect(refusalReason("0x7f.1")).toBe("0x7f.1 (127.0.0.1) is loopback");
    expect(refusalReason("::ffff:7f00:1")).toContain("embedding 127.0.0.1");
    expect(refusalReason("64:ff9b::a00:1")).toContain("embedding 10.0.0.1");
  });

  it("refuses things that are not addresses", () => {
    expect(refusalReason("example.com")).toBe("example.com is not an IP address");
    expect(refusalReason("")).not.toBeNull();
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:2800:21f:cb07:6820:80da:af6b:1b2e",
    "2a00:1450:4001:81c::200e",
  ])("%s is public unicast", (address) => {
    expect(refusalReason(address)).toBeNull();
    expect(isPublicUnicast(address)).toBe(true);
  });
});

describe("isLoopback", () => {
  it("knows loopback in both families and in IPv4-mapped form", () => {
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("127.9.9.9")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopback("10.0.0.1")).toBe(false);
    expect(isLoopback("localhost")).toBe(false);
  });
});
