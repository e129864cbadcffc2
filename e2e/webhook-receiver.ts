// A real HTTP endpoint on 127.0.0.1 for webhook deliveries: what it received (headers and raw body, to
// verify the signature as a receiver would) and what it answers, set by the test. The e2e server lets
// this loopback target through with CTS_WEBHOOK_ALLOW_HOSTS/CTS_WEBHOOK_ALLOW_HTTP (global-setup.ts).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>`: add a path. */
  origin: string;
  received: Received[];
  /** What the next requests get (default 200 with a small JSON body). */
  answer: (next: Answer) => void;
  /** Resolves with the first request received that satisfies `match`. */
  waitFor: (match: (r: Received) => boolean, timeoutMs?: number) => Promise<Received>;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let current: Answer = { status: 200, body: '{"received":true}' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(current.status, { "Content-Type": "application/json", ...current.headers });
      res.end(current.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      current = next;
    },
    waitFor: async (match, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const hit = received.find(match);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the receiver got no matching request within ${timeoutMs} ms (${received.length} in all)`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (for a subscription whose deliveries must fail). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
