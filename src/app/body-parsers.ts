import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyReply } from "fastify";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";

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
    if (drained > DRAIN_LIMIT) raw.socket.destroy();
  });
  raw.resume();
}
