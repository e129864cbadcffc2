import { describe, expect, it } from "vitest";
import { checkAllowHosts, type Lookup, validateTargetUrl } from "../../src/webhooks/testing.js";

/** A resolver that knows a fixed table and fails the test on any other name: no real DNS in tests. */
function stubLookup(table: Record<string, string[]>): Lookup {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address }));
  };
}

const names = stubLookup({
  "loopback.example": ["127.0.0.1"],
  "private.example": ["10.0.0.5"],
  "private172.example": ["172.20.1.1"],
  "home.example": ["192.168.0.10"],
  "metadata.example": ["169.254.169.254"],
  "cgnat.example": ["100.64.1.1"],
  "v6loop.example": ["::1"],
  "ula.example": ["fd00::1"],
  "mapped.example": ["::ffff:10.0.0.1"],
  "nat64.example": ["64:ff9b::a9fe:a9fe"],
  "mixed.example": ["93.184.215.14", "10.0.0.1"],
  "mixed6.example": ["2606:2800:21f:cb07:6820:80da:af6b:1b2e", "fe80::1"],
  "public.example": ["93.184.215.14"],
  "public6.example": ["2606:2800:21f:cb07:6820:80da:af6b:1b2e", "93.184.215.14"],
  "empty.example": [],
});
const policy = { allowHosts: [], allowHttp: false, lookup: names };

describe("validateTargetUrl refuses", () => {
  it.each([
    ["https://0x7f.1/", "loopback"],
    ["https://2130706433/", "loopback"],
    ["https://0177.0.0.1/", "loopback"],
    ["https://127.1/", "loopback"],
    ["https://0x7f000001/", "loopback"],
    ["https://127.0.0.1:8443/hook", "loopback"],
    ["https://[::1]/", "loopback"],
    ["https://[::ffff:7f00:1]/", "IPv4-mapped"],
    ["https://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["https://[::7f00:1]/", "IPv4-compatible"],
    ["https://[64:ff9b::a00:1]/", "NAT64"],
    ["https://[64:ff9b:1::a00:1]/", "NAT64"],
    ["https://[2002:7f00:1::]/", "6to4"],
    ["https://[2001::1]/", "Teredo"],
    ["https://[100::1]/", "discard"],
    ["https://[fec0::1]/", "site-local"],
    ["https://[fe80::1]/", "link-local"],
    ["https://[fc00::1]/", "unique-local"],
    ["https://[ff02::1]/", "multicast"],
    ["https://[::]/", "unspecified"],
    ["https://[2001:db8::1]/", "documentation"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://0/", "unspecified"],
    ["https://10.0.0.1/", "private"],
    ["https://172.16.0.1/", "private"],
    ["https://192.168.1.1/", "private"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://100.64.0.1/", "carrier-grade NAT"],
    ["https://224.0.0.1/", "multicast"],
    ["https://255.255.255.255/", "broadcast"],
    ["https://240.0.0.1/", "reserved"],
    ["https://0.0.0.1/", "reserved"],
    ["https://192.0.0.1/", "reserved"],
    ["https://198.18.0.1/", "benchmarking"],
    ["https://192.0.2.1/", "documentation"],
    ["https://198.51.100.1/", "documentation"],
    ["https://203.0.113.1/", "documentation"],
    ["http://example.com/", "https"],
    ["ftp://example.com/", "https"],
    ["https://example.com:22/", "port"],
    ["https://example.com:80/", "port"],
    ["https://example.com:1023/", "port"],
    ["https://user:pass@example.com/", "credentials"],
    ["not a url", "valid"],
    ["https://loopback.example/", "loopback.example resolves to 127.0.0.1: 127.0.0.1 is loopback"],
    ["https://private.example/", "private"],
    ["https://private172.example/", "private"],
    ["https://home.example/", "private"],
    ["https://metadata.example/", "link-local"],
    ["https://cgnat.example/", "carrier-grade NAT"],
    ["https://v6loop.example/", "loopback"],
    ["https://ula.example/", "unique-local"],
    ["https://mapped.example/", "IPv4-mapped"],
    ["https://nat64.example/", "NAT64"],
    ["https://mixed.example/", "10.0.0.1 is private"],
    ["https://mixed6.example/", "link-local"],
    ["https://empty.example/", "no addresses"],
    ["https://unknown.example/", "could not be resolved"],
  ])("%s (%s)", async (url, reason) => {
    expect(await validateTargetUrl(url, policy)).toContain(reason);
  });
});

describe("validateTargetUrl accepts", () => {
  it.each([
    "https://93.184.215.14/",
    "https://[2606:2800:21f:cb07:6820:80da:af6b:1b2e]/",
    "https://public.example/hooks?x=1",
    "https://public6.example:8443/",
    "https://PUBLIC.example./",
  ])("%s", async (url) => {
    expect(await validateTargetUrl(url, policy)).toBeNull();
  });
});

describe("exemptions", () => {
  const exempt = { allowHosts: ["localhost", "127.0.0.1:8080", "[::1]:9000"], allowHttp: true, lookup: names };
  const lookupLocal = stubLookup({ localhost: ["127.0.0.1", "::1"] });

  it("lets listed loopback targets through, on the listed port only", async () => {
    const policy = { ...exempt, lookup: lookupLocal };
    expect(await validateTargetUrl("http://localhost:3001/hook", policy)).toBeNull();
    expect(await validateTargetUrl("https://127.0.0.1:8080/", policy)).toBeNull();
    expect(await validateTargetUrl("http://0x7f.1:8080/", policy)).toBeNull();
    expect(await validateTargetUrl("http://[::1]:9000/", policy)).toBeNull();
    expect(await validateTargetUrl("https://127.0.0.1:8081/", policy)).toContain("loopback");
    expect(await validateTargetUrl("https://[::1]:9001/", policy)).toContain("loopback");
  });

  it("allows http only with allowHttp, and only for exempt targets", async () => {
    const noHttp = { ...exempt, allowHttp: false, lookup: lookupLocal };
    expect(await validateTargetUrl("http://127.0.0.1:8080/", noHttp)).toContain("https");
    expect(await validateTargetUrl("http://public.example/", { ...exempt, lookup: names })).toContain("https");
  });

  it("still applies the port rule to exempt targets", async () => {
    expect(await validateTargetUrl("http://localhost/", { ...exempt, lookup: lookupLocal })).toContain("port");
  });

  it("refuses an exempt name that resolves to anything but loopback", async () => {
    const rebound = stubLookup({ localhost: ["127.0.0.1", "10.0.0.1"] });
    expect(await validateTargetUrl("http://localhost:3001/", { ...exempt, lookup: rebound })).toContain(
      "10.0.0.1 is not loopback",
    );
  });
});

describe("checkAllowHosts", () => {
  it("accepts loopback names and literals (real resolver for localhost)", async () => {
    expect(await checkAllowHosts(["localhost", "127.0.0.1:8080"])).toEqual([]);
    expect(await checkAllowHosts(["[::1]:3000", "::1", "127.0.0.2", "0x7f.1:4000"], names)).toEqual([]);
  });

  it("reports a name that resolves to a public address", async () => {
    const problems = await checkAllowHosts(["example.com"], stubLookup({ "example.com": ["93.184.215.14"] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("example.com");
    expect(problems[0]).toContain("not loopback");
  });

  it("reports non-loopback literals and malformed entries, one message each", async () => {
    const problems = await checkAllowHosts(["10.0.0.1", "localhost:99999", "", "[::1]:x", "nowhere.example"], names);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toContain("10.0.0.1 is not loopback");
    for (const problem of problems) expect(problem.startsWith("CTS_WEBHOOK_ALLOW_HOSTS: ")).toBe(true);
  });
});
