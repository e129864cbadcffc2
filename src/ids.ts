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

function freshRandom(): number[] {
  return Array.from(randomBytes(RANDOM_CHARS), (b) => b & 31);
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
  return `${prefix}_${encodeTime(time)}${lastRandom.map((d) => ALPHABET[d]).join("")}`;
}
