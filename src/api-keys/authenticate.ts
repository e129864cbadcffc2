import type { Actor } from "../context.js";
import type { Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import type { KeyCache, KeyRow } from "./key-cache.js";
import { touchKey } from "./repository.js";
import { environmentOf, hashKey } from "./secret.js";

// `last_used_at` is informational: write it at most once a minute per key, off the request's path.
const TOUCH_INTERVAL_MS = 60_000;

export class MissingCredentials extends AppError {
  constructor() {
    super("unauthorized", "Missing API key: send Authorization: Bearer <key>", undefined, {
      "WWW-Authenticate": 'Bearer realm="cts"',
    });
  }
}

function unauthorized(message: string): AppError {
  return new AppError("unauthorized", message, undefined, {
    "WWW-Authenticate": 'Bearer realm="cts", error="invalid_token"',
  });
}

/** The raw key of a well-formed `Bearer` header, else undefined (authenticate says what is wrong). */
function bearerKey(header: string | undefined): string | undefined {
  return header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** The key a request's Authorization header presents, and its SHA-256: worked out once per request. */
export interface PresentedKey {
  header: string | undefined;
  /** The raw key of a well-formed `Bearer` header, else undefined. */
  raw: string | undefined;
  /** Its SHA-256 (what keys are stored and cached by), if there is one. */
  hash: string | undefined;
}

export function presentedKey(header: string | undefined): PresentedKey {
  const raw = bearerKey(header);
  return { header, raw, hash: raw === undefined ? undefined : hashKey(raw) };
}

/**
 * The id of the key presented, if this process has seen it: known without a read, but not yet checked
 * against revocation or expiry (authenticate does that). Lets the pipeline start the key's rate-limit
 * count while authentication waits for the database (`admit`).
 */
export function knownKeyId(keys: KeyCache, key: PresentedKey): string | undefined {
  return key.hash === undefined ? undefined : keys.peek(key.hash)?.id;
}

/** Bearer header → the key's actor, or 401 saying which problem it is (never whether another key exists). */
export async function authenticate(
  db: Db,
  keys: KeyCache,
  env: string,
  key: PresentedKey,
  now: Date,
  /** A fresh read of the key version, if the caller has one coming (see KeyCache.lookup). */
  freshVersion?: Promise<string>,
): Promise<Actor> {
  const hash = checkPresented(env, key);
  return actorOf(db, await keys.lookup(hash, freshVersion), now);
}

/**
 * `authenticate` without waiting, for a key the cache may trust as it is (`KeyCache.trusted`, embedded):
 * its actor, or undefined when that needs a read or a refusal (then `authenticate` decides, as it would).
 */
export function authenticateCached(
  db: Db,
  keys: KeyCache,
  env: string,
  key: PresentedKey,
  now: Date,
): Actor | undefined {
  if (key.hash === undefined || key.raw === undefined || environmentOf(key.raw) !== env) return undefined;
  const row = keys.trusted(key.hash);
  if (!row || row.revoked_at || (row.expires_at && row.expires_at <= now)) return undefined;
  return actorOf(db, row, now);
}

/** The presented key's hash, or the 401 for a missing or malformed one, or one of another environment. */
function checkPresented(env: string, key: PresentedKey): string {
  const { header, raw } = key;
  if (header === undefined || header.trim() === "") throw new MissingCredentials();
  if (raw === undefined || key.hash === undefined) {
    throw unauthorized("Malformed Authorization header: expected 'Bearer <key>'");
  }
  const keyEnv = environmentOf(raw);
  if (keyEnv === null) throw unauthorized("Malformed API key: expected cts_<environment>_<secret>");
  if (keyEnv !== env) {
    throw unauthorized(`This is a ${keyEnv} key; this server is the ${env} environment. Use a key issued here.`);
  }
  return key.hash;
}

function actorOf(db: Db, row: KeyRow | undefined, now: Date): Actor {
  if (!row) throw unauthorized("Unknown API key");
  if (row.revoked_at) throw unauthorized("This API key has been revoked");
  if (row.expires_at && row.expires_at <= now) {
    throw unauthorized(`This API key expired at ${row.expires_at.toISOString()}`);
  }
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= TOUCH_INTERVAL_MS) {
    row.last_used_at = now; // the cached row: the next touch is a minute from now, in this process
    touchKey(db, row.id, now).catch(() => {});
  }
  return { type: "api_key", keyId: row.id, name: row.name, scope: row.scope, mcpAccess: row.mcp_access };
}
