import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type pino from "pino";
import { AppError, errorBody } from "../errors.js";
import { newId } from "../ids.js";
import { redactTarget } from "../request-logs/redact.js";
import type { RequestLogWriter } from "../request-logs/writer.js";
import { STATIC_SECURITY_HEADERS } from "./security-headers.js";

/** After a refusal written straight to the socket, how long and how much we still read before closing. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 1024 * 1024;

export interface ClientErrorDeps {
  logger: pino.Logger;
  requestLog: RequestLogWriter;
  clock: () => Date;
  requestTimeoutSeconds: number;
}

interface InFlight {
  request: FastifyRequest;
  reply: FastifyReply;
}

type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/**
 * Node's HTTP layer reports malformed requests and request timeouts as `clientError` on the socket.
 * A request whose headers arrived is answered through Fastify (same Request-Id, error handler and
 * request log); anything earlier gets the contract body written to the socket here, and a log row.
 */
export class ClientErrors {
  private readonly inFlight = new WeakMap<Socket, InFlight>();
  private readonly refused = new WeakSet<Socket>();

  constructor(private readonly deps: ClientErrorDeps) {}

  /** onRequest hook (synchronous, so cheap): the request now being read on its socket. */
  track = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    this.inFlight.set(request.raw.socket, { request, reply });
    done();
  };

  handle = (error: Error, socket: Socket): void => {
    const err = error as ClientError;
    // The parser reports each further chunk of a refused connection again: it is already answered.
    if (this.refused.has(socket)) return;
    const refusal = this.toAppError(err);
    // ECONNRESET: the client left; an in-flight request is logged (499) by the pipeline's abort hook.
    if (!refusal || socket.destroyed) return void socket.destroy();
    const current = this.inFlight.get(socket);
    if (current && !current.request.raw.complete) this.failInFlight(current, refusal, socket);
    else this.refuse(socket, refusal, err.rawPacket);
  };

  private toAppError(err: ClientError): AppError | undefined {
    if (err.code === "ECONNRESET") return undefined;
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      const seconds = this.deps.requestTimeoutSeconds;
      return new AppError("request_timeout", `The request did not arrive in full within ${seconds} s`);
    }
    if (err.code === "HPE_HEADER_OVERFLOW") {
      return new AppError("headers_too_large", "Request headers are larger than 16 KiB");
    }
    return new AppError("bad_request", `Malformed HTTP request: ${err.reason ?? err.code ?? err.message}`);
  }

  /**
   * The body of a request Fastify is handling will never arrive: fail its body reader with `error`
   * (answered by the error handler). If the reply already went out, nothing more can be said.
   */
  private failInFlight({ request, reply }: InFlight, error: AppError, socket: Socket): void {
    if (reply.sent) return void socket.destroy();
    reply.header("Connection", "close");
    const raw = request.raw;
    if (raw.listenerCount("error") > 0) return void raw.emit("error", error);
    // Not reading the body yet (hooks still running): fail it as soon as the body reader starts.
    const onListener = (event: string | symbol) => {
      if (event !== "error") return;
      raw.off("newListener", onListener);
      setImmediate(() => raw.emit("error", error));
    };
    raw.on("newListener", onListener);
  }

  /** No request to answer through: write the contract body, close, and read what is left (bounded). */
  private refuse(socket: Socket, error: AppError, rawPacket: Buffer | undefined): void {
    this.refused.add(socket);
    const id = newId("req");
    const body = JSON.stringify(errorBody(error, id));
    const head = [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
      "Content-Type: application/json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Request-Id: ${id}`,
      "Cache-Control: private, no-cache",
      ...Object.entries(STATIC_SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
      "Connection: close",
    ];
    if (socket.writable) socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
    // Closing with unread input would reset the connection, and the client could lose the answer.
    let unread = 0;
    const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.on("data", (chunk: Buffer) => {
      unread += chunk.length;
      if (unread > LINGER_BYTES) socket.destroy();
    });
    socket.once("close", () => clearTimeout(linger));
    this.log(id, requestLine(rawPacket), error.status, socket.remoteAddress ?? null);
  }

  /** A request Fastify refused before any hook ran (a URL it cannot decode): a warn line and a row all the same. */
  logUnrouted = (req: FastifyRequest, status: number): void => {
    this.log(req.id, { method: req.method, path: redactTarget(req.url) }, status, req.ip ?? null);
  };

  private log(id: string, line: { method: string; path: string }, status: number, ip: string | null): void {
    const { logger, requestLog, clock } = this.deps;
    logger.warn({ request_id: id, ...line, status, client_ip: ip }, "request refused before it was complete");
    requestLog.record({
      id,
      key_id: null,
      ...line,
      status,
      duration_ms: 0,
      client_ip: ip,
      user_agent: null,
      created_at: clock(),
    });
  }
}

/** Method and path (secrets redacted) from the bytes the parser refused, when they start with a request line; never the query. */
function requestLine(rawPacket: Buffer | undefined): { method: string; path: string } {
  const match = /^([A-Z]{1,16}) (\/[^\s?]{0,2000})\S* HTTP\/\d\.\d\r?\n/.exec(rawPacket?.toString("latin1") ?? "");
  return { method: match?.[1] ?? "", path: match ? redactTarget(match[2]!) : "" };
}
