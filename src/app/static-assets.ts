import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { matchesIfNoneMatch } from "../http/etag.js";

/** For files whose name carries a hash of their content: a new content is a new name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** For the pages that name those files: always revalidated (a cheap 304 by ETag). */
export const REVALIDATE = "no-cache";

export type Encoding = "br" | "gzip";

/** A file served from memory, with its ETag and its compressed forms. */
export interface Asset {
  type: string;
  identity: Buffer;
  hash: string;
  /** Given (compressed at build time) or compressed once per encoding, on first demand. */
  encoded: Map<Encoding, Promise<Buffer>>;
}

export function asset(body: Buffer, type: string, precompressed: Partial<Record<Encoding, Buffer>> = {}): Asset {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 16);
  const encoded = new Map<Encoding, Promise<Buffer>>();
  for (const [encoding, buffer] of Object.entries(precompressed) as [Encoding, Buffer][]) {
    encoded.set(encoding, Promise.resolve(buffer));
  }
  return { type, identity: body, hash, encoded };
}

/** The client's best of br, gzip, identity (q=0 refuses one). */
function encodingFor(header: string | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return ok("br") ? "br" : ok("gzip") ? "gzip" : undefined;
}

export const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The asset in the client's best encoding, with its ETag (304 when it matches) and caching. */
export async function sendAsset(req: FastifyRequest, reply: FastifyReply, file: Asset, cacheControl: string) {
  const encoding = encodingFor(req.headers["accept-encoding"]);
  const etag = `"${file.hash}${encoding ? `-${encoding}` : ""}"`;
  reply.header("Content-Type", file.type).header("Vary", "Accept-Encoding").header("Cache-Control", cacheControl);
  reply.header("ETag", etag);
  if (matchesIfNoneMatch(req.headers["if-none-match"], etag)) return reply.code(304).send();
  if (!encoding) return reply.send(file.identity);
  let body = file.encoded.get(encoding);
  if (!body) {
    body = compressors[encoding](file.identity);
    file.encoded.set(encoding, body);
    body.catch(() => file.encoded.delete(encoding));
  }
  return reply.header("Content-Encoding", encoding).send(await body);
}
