import { randomBytes } from "node:crypto";

// Crockford base32, as ULID uses: ids sort by creation time as plain strings.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RANDOM_CHARS = 16; // 80 bits

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

// Random bytes drawn 4 KiB at a time: one call to the system's generator per 256 ids, not per id.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function freshRandom(): number[] {
  if (poolOffset + RANDOM_CHARS > pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const digits = new Array<number>(RANDOM_CHARS);
  for (let i = 0; i < RANDOM_CHARS; i++) digits[i] = pool[poolOffset + i]! & 31;
  poolOffset += RANDOM_CHARS;
  return digits;
}

/** Increments the random part so ids made within one millisecond still ascend (monotonic ULID). */
function incremented(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]! += 1;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}

/** A prefixed, time-ordered id such as `deal_01JD…`, monotonic within this process. */
export function newId(prefix: string, now: number = Date.now()): string {
  const time = Math.max(now, lastTime);
  lastRandom = time === lastTime ? incremented(lastRandom) : freshRandom();
  lastTime = time;
  let random = "";
  for (const d of lastRandom) random += ALPHABET[d];
  return `${prefix}_${encodeTime(time)}${random}`;
}
