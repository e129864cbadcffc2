import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyReply } from "fastify";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The 413's message when the route's body limit is not the usual 1 MiB (the CSV imports). */
    bodyTooLarge?: string;
  }
}

export const BODY_LIMIT = 1024 * 1024;
/** What is still read (and discarded) of a refused body after its 413, so the client sees the answer. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * JSON only (415 otherwise), malformed JSON → 400 `bad_request`, and an empty body of any
 * content type → `{}`, so actions can be posted with no body at all (API.md §2).
 */
export function registerBodyParsers(app: App): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: "string", bodyLimit: BODY_LIMIT },
    (_req, body, done) => {
      const text = String(body);
      if (text.trim() === "") return done(null, {});
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        return done(new AppError("bad_request", `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      }
      try {
        done(null, JSON.parse(text));
      } catch (err) {
        // Only where: V8's message quotes the body around the error, which may be a password.
        const at = /position (\d+)/.exec((err as Error).message)?.[1];
        done(new AppError("bad_request", `Malformed JSON body${at ? ` (at position ${at})` : ""}`), undefined);
      }
    },
  );
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (req, body, done) => {
    if ((body as Buffer).length === 0) return done(null, {});
    done(
      new AppError(
        "unsupported_media_type",
        `Content-Type ${req.headers["content-type"] ?? "(none)"} is not supported; send application/json`,
      ),
      undefined,
    );
  });
  app.addHook("onError", (req, reply, error, done) => {
    if ((error as FastifyError).code === "FST_ERR_CTP_BODY_TOO_LARGE") drainRejectedBody(req.raw, reply);
    done();
  });
}

/**
 * A 413 goes out while the client may still be sending: closing now would reset the connection and a
 * streaming client (node:http) sees EPIPE instead of the answer. Keep the connection, discard the rest
 * of the body up to DRAIN_LIMIT (the request timeout bounds the time), and destroy it past that.
 */
function drainRejectedBody(raw: IncomingMessage, reply: FastifyReply): void {
  if (raw.complete) return;
  reply.removeHeader("connection");
  let drained = 0;
  raw.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) raw.destroy();
  });
  raw.resume();
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A CSV file's bytes as text (API.md §19): UTF-8 or 400. A BOM is kept (the CSV reader skips it), so the
 * text's UTF-8 bytes are the file's and its SHA-256 is theirs. `cts import` reads a file the same way.
 */
export function decodeCsvFile(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new AppError("bad_request", "The file is not valid UTF-8 text: save it as CSV UTF-8 (Excel: CSV UTF-8)");
  }
}

/** Charsets a text/csv body may declare: the file is read as UTF-8 (API.md §19). */
const UTF8_NAMES = new Set(["utf-8", "utf8", "us-ascii"]);

/**
 * The CSV imports' bodies (API.md §19), for the routes registered on `scoped` only: `text/csv` up to
 * `limit` bytes as text (a BOM kept, so the text's UTF-8 bytes are the file's, for its SHA-256); not
 * UTF-8 → 400; any other content type, JSON included → 415; over the limit → 413 saying to split.
 */
export function registerCsvBody(scoped: App, limit: { bytes: number; tooLarge: string }): void {
  scoped.removeAllContentTypeParsers();
  scoped.addContentTypeParser(
    /^text\/csv(\s*;.*)?$/i,
    { parseAs: "buffer", bodyLimit: limit.bytes },
    (req, body, done) => {
      const charset = /;\s*charset="?([^";\s]+)/i.exec(String(req.headers["content-type"]))?.[1]?.toLowerCase();
      if (charset !== undefined && !UTF8_NAMES.has(charset)) {
        return done(
          new AppError("bad_request", `The file must be UTF-8; Content-Type says charset=${charset}`),
          undefined,
        );
      }
      try {
        done(null, decodeCsvFile(body as Buffer));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
  scoped.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (req, _body, done) => {
    done(
      new AppError(
        "unsupported_media_type",
        `Content-Type ${req.headers["content-type"] ?? "(none)"} is not supported here; send the file as text/csv`,
      ),
      undefined,
    );
  });
  // No body and no Content-Type at all: Fastify runs no parser.
  scoped.addHook("preValidation", async (req) => {
    if (typeof req.body !== "string") {
      throw new AppError("unsupported_media_type", "Send the file as the body, with Content-Type: text/csv");
    }
  });
  scoped.addHook("onRoute", (route) => {
    route.config = { ...(route.config as object), bodyTooLarge: limit.tooLarge } as typeof route.config;
  });
}
