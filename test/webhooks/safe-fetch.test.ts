import { readFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { request } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSafeAgent } from "../../src/webhooks/index.js";
import type { Lookup } from "../../src/webhooks/testing.js";
import {
  createSafeConnector,
  type SafeAgent,
  SafeFetchError,
  safePost,
  validateTargetUrl,
} from "../../src/webhooks/testing.js";

interface LocalServer {
  port: number;
  requests: number;
  connections: number;
  server: Server;
}

const servers: Server[] = [];
const agents: SafeAgent[] = [];

async function listen(handler: RequestListener): Promise<LocalServer> {
  const local = { port: 0, requests: 0, connections: 0 } as LocalServer;
  local.server = createServer((req, res) => {
    local.requests += 1;
    handler(req, res);
  });
  local.server.on("connection", () => {
    local.connections += 1;
  });
  servers.push(local.server);
  await new Promise<void>((resolve) => local.server.listen(0, "127.0.0.1", resolve));
  local.port = (local.server.address() as AddressInfo).port;
  return local;
}

function agent(options: Parameters<typeof createSafeAgent>[0]): SafeAgent {
  const created = createSafeAgent(options);
  agents.push(created);
  return created;
}

const post = { headers: { "content-type": "application/json" }, body: '{"ok":true}' };

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SafeFetchError);
  return error as SafeFetchError;
}

afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe("the safe agent refuses", () => {
  it("a real local server over https://127.0.0.1:<port>/, which never sees a connection", async () => {
    const local = await listen((_req, res) => res.end("hi"));
    const error = await refusal(
      safePost(agent({ allowHosts: [], allowHttp: false }), `https://127.0.0.1:${local.port}/`, post),
    );
    expect(error.kind).toBe("refused");
    expect(error.reason).toContain("127.0.0.1 is loopback");
    expect(local.connections).toBe(0);
    expect(local.requests).toBe(0);
  });

  it.each([
    "https://0x7f.1:8443/",
    "https://2130706433:8443/",
    "https://0177.0.0.1:8443/",
    "https://127.1:8443/",
    "https://[::1]:8443/",
    "https://[::ffff:7f00:1]:8443/",
    "https://[64:ff9b::a00:1]/",
    "https://[2002:7f00:1::]/",
    "https://169.254.169.254/latest/meta-data",
    "https://10.0.0.1/",
    "https://0.0.0.0:8443/",
    "http://93.184.215.14/",
    "https://93.184.215.14:22/",
  ])("%s even when the dispatcher is used directly, past safePost's own checks", async (url) => {
    const safe = agent({ allowHosts: [], allowHttp: true, lookup: async () => [] });
    const error = await refusal(request(url, { dispatcher: safe.dispatcher, method: "POST", body: "x" }));
    expect(error.kind).toBe("refused");
  });

  it("a name whose second resolution is rebound to loopback: the connect-time check refuses it", async () => {
    const local = await listen((_req, res) => res.end("hi"));
    const answers = ["93.184.215.14", "127.0.0.1"];
    const calls: string[] = [];
    const rebinding: Lookup = async (hostname) => {
      calls.push(hostname);
      return [{ address: answers[calls.length - 1] ?? "127.0.0.1" }];
    };
    const url = `https://rebind.example:${local.port}/hook`;
    const policy = { allowHosts: [], allowHttp: false, lookup: rebinding };
    expect(await validateTargetUrl(url, policy)).toBeNull();
    const error = await refusal(safePost(agent(policy), url, post));
    expect(calls).toEqual(["rebind.example", "rebind.example"]);
    expect(error.reason).toBe("refused at connect: rebind.example resolves to 127.0.0.1: 127.0.0.1 is loopback");
    expect(local.connections).toBe(0);
  });

  it("a connected socket whose remote address fails the policy, and destroys it", async () => {
    let destroyed = false;
    const fakeSocket = { remoteAddress: "10.0.0.7", destroy: () => (destroyed = true) } as unknown as Socket;
    const dialed: string[] = [];
    const connect = createSafeConnector(
      { allowHosts: [], allowHttp: false, lookup: async () => [{ address: "93.184.215.14" }] },
      (options, callback) => {
        dialed.push(options.hostname);
        callback(null, fakeSocket);
      },
    );
    const error = await new Promise<Error | null>((resolve) =>
      connect({ hostname: "example.com", host: "example.com", protocol: "https:", port: "" }, (...args) =>
        resolve(args[0]),
      ),
    );
    expect(dialed).toEqual(["93.184.215.14"]);
    expect(error).toBeInstanceOf(SafeFetchError);
    expect((error as SafeFetchError).reason).toBe("refused after connect: 10.0.0.7 is private");
    expect(destroyed).toBe(true);
  });

  it("http to an exempt host when allowHttp is off", async () => {
    const local = await listen((_req, res) => res.end("hi"));
    const safe = agent({ allowHosts: [`127.0.0.1:${local.port}`], allowHttp: false });
    const error = await refusal(safePost(safe, `http://127.0.0.1:${local.port}/`, post));
    expect(error.reason).toContain("https");
    expect(local.connections).toBe(0);
  });
});

describe("safePost to an exempt local target", () => {
  it("posts, returns status and headers, keeps only the first 20 KB and measures the duration", async () => {
    let received = "";
    const local = await listen((req, res) => {
      req.on("data", (chunk: Buffer) => {
        received += chunk.toString();
      });
      req.on("end", () => res.writeHead(200, { "x-reply": "yes" }).end("a".repeat(100 * 1024)));
    });
    const safe = agent({ allowHosts: [`127.0.0.1:${local.port}`], allowHttp: true });
    const response = await safePost(safe, `http://127.0.0.1:${local.port}/hook`, post);
    expect(response.status).toBe(200);
    expect(response.headers["x-reply"]).toBe("yes");
    expect(response.bodyText).toHaveLength(20 * 1024);
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(response.durationMs).toBeLessThan(5000);
    expect(received).toBe('{"ok":true}');
  });

  it("works through a loopback name resolved by the injected lookup", async () => {
    const local = await listen((_req, res) => res.writeHead(204).end());
    const safe = agent({
      allowHosts: ["localhost"],
      allowHttp: true,
      lookup: async () => [{ address: "::1" }, { address: "127.0.0.1" }],
    });
    const response = await safePost(safe, `http://localhost:${local.port}/`, post);
    expect(response.status).toBe(204);
    expect(response.bodyText).toBe("");
  });

  it("returns a 302 as a 302 and never follows it", async () => {
    const target = await listen((_req, res) => res.end("followed"));
    const redirecting = await listen((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end(),
    );
    const safe = agent({ allowHosts: ["127.0.0.1"], allowHttp: true });
    const response = await safePost(safe, `http://127.0.0.1:${redirecting.port}/`, post);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`http://127.0.0.1:${target.port}/`);
    expect(target.requests).toBe(0);
    expect(target.connections).toBe(0);
  });

  it("gives up after the timeout when the server never answers", async () => {
    const unanswered: boolean[] = [];
    const local = await listen((_req, res) => res.on("close", () => unanswered.push(!res.writableEnded)));
    const safe = agent({ allowHosts: [`127.0.0.1:${local.port}`], allowHttp: true });
    const error = await refusal(safePost(safe, `http://127.0.0.1:${local.port}/`, { ...post, timeoutMs: 300 }));
    expect(error.kind).toBe("timeout");
    expect(error.reason).toBe("no complete response within 300 ms");
    expect(local.requests).toBe(1);
    // The sender aborted the request it was still waiting on: the receiver saw it closed, unanswered.
    await vi.waitFor(() => expect(unanswered).toEqual([true]));
  });

  it("times out a body that trickles past the deadline", async () => {
    const local = await listen((_req, res) => {
      res.writeHead(200);
      res.write("start");
    });
    const safe = agent({ allowHosts: [`127.0.0.1:${local.port}`], allowHttp: true });
    const error = await refusal(safePost(safe, `http://127.0.0.1:${local.port}/`, { ...post, timeoutMs: 300 }));
    expect(error.kind).toBe("timeout");
  });

  it("reports a refused connection as a network error", async () => {
    const local = await listen(() => {});
    const port = local.port;
    local.server.close();
    const safe = agent({ allowHosts: [`127.0.0.1:${port}`], allowHttp: true });
    const error = await refusal(safePost(safe, `http://127.0.0.1:${port}/`, post));
    expect(error.kind).toBe("network");
    expect(error.reason).toContain("ECONNREFUSED");
  });
});

describe("https through the safe agent", () => {
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
  const cert = fixture("hooks-test.crt");

  async function listenTls(): Promise<{ port: number; servernames: (string | false | null)[] }> {
    const servernames: (string | false | null)[] = [];
    const server = createTlsServer({ cert, key: fixture("hooks-test.key") }, (req, res) => {
      servernames.push((req.socket as TLSSocket).servername);
      res.end("secure");
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { port: (server.address() as AddressInfo).port, servernames };
  }

  it("dials the checked address but keeps SNI and certificate checks on the name", async () => {
    const local = await listenTls();
    const lookup: Lookup = async () => [{ address: "127.0.0.1" }];
    const safe = agent({ allowHosts: ["hooks.test"], allowHttp: false, lookup, ca: cert });
    const response = await safePost(safe, `https://hooks.test:${local.port}/`, post);
    expect(response.status).toBe(200);
    expect(response.bodyText).toBe("secure");
    expect(local.servernames).toEqual(["hooks.test"]);
  });

  it("verifies the certificate against the URL host, not the dialed address", async () => {
    const local = await listenTls();
    const safe = agent({ allowHosts: ["127.0.0.1"], allowHttp: false, ca: cert });
    const error = await refusal(safePost(safe, `https://127.0.0.1:${local.port}/`, post));
    expect(error.kind).toBe("network");
    expect(error.reason).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(local.servernames).toEqual([]);
  });
});
