import { AppError } from "../errors.js";
import type { App } from "../http/types.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.js";

export const BODY_LIMIT = 1024 * 1024;

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
        done(new AppError("bad_request", `Malformed JSON body: ${(err as Error).message}`), undefined);
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
}
