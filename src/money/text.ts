// Decimal text in and out of the exact number (fixed.ts): parsing without allocating on the hot
// path, and exact plain, cents and display notations.
import { cmp, type Fixed, fx, type Int, MAX, neg, norm, POW10, roundTo, shift, times100 } from "./fixed.js";

const ZEROS = Array.from({ length: 16 }, (_, k) => "0".repeat(k));

// ---- parsing ----

// Decimal text as decimal.js takes it: optional sign, digits with an optional point, optional exponent.
const TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses "1234.50", "-0.001", "1e-7" (trailing zeros dropped: "0.050000" is 5 × 10^-2). */
export function parse(value: string | number): Fixed {
  const text = typeof value === "number" ? String(value) : value;
  return (text.length <= 15 ? parseShort(text) : null) ?? parseText(text);
}

/**
 * Where `parseInto` leaves a short decimal, value = c × 10^-s (module scratch, so hot paths that only need
 * the two numbers allocate nothing).
 */
export const scratch = { c: 0, s: 0 };

/**
 * Parses "-123.4500" of at most 15 characters (so at most 15 digits: a safe integer) into `scratch`, as
 * `parse` would (trailing zeros dropped, never -0); false, scratch untouched, for any other text.
 */
export function parseInto(text: string): boolean {
  const n = text.length;
  if (n > 15) return false;
  const negative = n > 0 && text.charCodeAt(0) === 45;
  let c = 0;
  let s = -1;
  let digits = 0;
  for (let i = negative ? 1 : 0; i < n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d >= 0 && d <= 9) {
      c = c * 10 + d;
      digits++;
      if (s >= 0) s++;
    } else if (d === -2 && s < 0)
      s = 0; // the point
    else return false;
  }
  if (digits === 0) return false;
  if (s < 0) s = 0;
  while (s > 0 && c % 10 === 0) {
    c /= 10;
    s--;
  }
  scratch.c = negative && c !== 0 ? -c : c;
  scratch.s = s;
  return true;
}

/**
 * Whether `text` is already what `plain` writes for its value ("1234.5", "0.05", "12"; not "1234.50",
 * "012", ".5", "5.", "-0", "1e3"), so it can stand for that value's plain text as it is.
 */
export function isPlainText(text: string): boolean {
  const n = text.length;
  const start = n > 0 && text.charCodeAt(0) === 45 ? 1 : 0;
  if (start >= n) return false;
  let point = -1;
  let nonZero = false;
  for (let i = start; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 46 && point < 0 && i > start) point = i;
    else if (ch < 48 || ch > 57) return false;
    else if (ch !== 48) nonZero = true;
  }
  if (text.charCodeAt(start) === 48 && n > start + 1 && point !== start + 1) return false; // "012"
  if (point >= 0 && (point === n - 1 || text.charCodeAt(n - 1) === 48)) return false; // "5.", "5.50"
  return nonZero || start === 0; // "-0" is "0"
}

/** cmp(parse(a), parse(b)), allocating nothing for short texts. */
export function compareTexts(a: string, b: string): number {
  if (parseInto(a)) {
    const ca = scratch.c;
    const sa = scratch.s;
    if (parseInto(b)) {
      const scale = sa > scratch.s ? sa : scratch.s;
      const x = ca * POW10[scale - sa]!;
      const y = scratch.c * POW10[scale - scratch.s]!;
      if (Math.abs(x) <= MAX && Math.abs(y) <= MAX) return x < y ? -1 : x > y ? 1 : 0;
    }
  }
  return cmp(parse(a), parse(b));
}

/** "-123.4500" in at most 15 characters, else null. */
function parseShort(text: string): Fixed | null {
  return parseInto(text) ? fx(scratch.c, scratch.s) : null;
}

function parseText(text: string): Fixed {
  const m = TEXT.exec(text);
  if (!m || (m[2] === "" && !m[3])) throw new RangeError(`not a decimal number: "${text}"`);
  let fraction = m[3] ?? "";
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  const digits = m[2] + fraction;
  const magnitude: Int = digits.length <= 15 ? Number(digits) : norm(BigInt(digits));
  const c = m[1] === "-" ? neg(magnitude) : magnitude;
  const scale = fraction.length - (m[4] === undefined ? 0 : Number(m[4]));
  return scale >= 0 ? fx(c, scale) : fx(shift(c, -scale), 0);
}

// ---- text ----

// Where `split` leaves |c| cut at the point (module scratch, so the hot path allocates no tuple).
let whole = 0;
let rest = 0;

/** For a Number coefficient and s < 16: whole = integer part of |value|, rest = its fraction digits. */
function split(c: number, s: number): void {
  const p = POW10[s]!;
  const abs = c < 0 ? -c : c;
  rest = abs % p; // exact, as is the division of the exact multiple below
  whole = (abs - rest) / p;
}

/** Fraction digits of `r` written with `width` places, trailing zeros dropped ("" when r is 0). */
function fractionText(r: number, width: number): string {
  if (r === 0) return "";
  let places = width;
  while (r % 10 === 0) {
    r /= 10;
    places--;
  }
  const text = String(r);
  return text.length < places ? ZEROS[places - text.length] + text : text;
}

/** Digits of |c| with at least `s + 1` characters (the BigInt and long-scale path). */
function digitsOf(a: Fixed): string {
  const digits = String(a.c < 0 ? neg(a.c) : a.c);
  return digits.length <= a.s ? "0".repeat(a.s + 1 - digits.length) + digits : digits;
}

/** Exact plain notation, trailing zeros dropped, never an exponent: "30000", "0.00000001", "-1.5". */
export function plain(a: Fixed): string {
  const { c, s } = a;
  if (c === 0) return "0";
  if (s === 0) return String(c);
  let body: string;
  if (typeof c === "number" && s < POW10.length) {
    split(c, s);
    const fraction = fractionText(rest, s);
    body = fraction === "" ? String(whole) : `${whole}.${fraction}`;
  } else {
    const digits = digitsOf(a);
    const point = digits.length - s;
    let end = digits.length;
    while (end > point && digits.charCodeAt(end - 1) === 48) end--;
    body = end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
  }
  return c < 0 ? `-${body}` : body;
}

/** "1234.50" (places 2), "617" (0), "123.457" (3): rounded half away from zero when there are more. */
export function fixedText(a: Fixed, places: number): string {
  const c = a.s > places ? roundTo(a, places).c : shift(a.c, places - a.s);
  if (places === 2 && typeof c === "number") return centsText(c);
  if (places === 0) return String(c);
  if (c === 0) return `0.${ZEROS[places]}`;
  const sign = c < 0 ? "-" : "";
  const digits = digitsOf(fx(c, places));
  return `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** "1234.50": two decimals (fixedText at 2). */
export const cents = (a: Fixed): string => fixedText(a, 2);

const CENTS = Array.from({ length: 100 }, (_, k) => `.${String(k).padStart(2, "0")}`);

/** A safe integer number of cents as "1234.50" ("-0.05"; "0.00" for 0). */
export function centsText(c: number): string {
  if (c === 0) return "0.00";
  split(c, 2);
  const text = String(whole) + CENTS[rest]!;
  return c < 0 ? `-${text}` : text;
}

function group(intPart: string): string {
  if (intPart.length <= 3) return intPart;
  let out = intPart.slice(0, ((intPart.length - 1) % 3) + 1);
  for (let i = out.length; i < intPart.length; i += 3) out += `,${intPart.slice(i, i + 3)}`;
  return out;
}

/**
 * "10,000.00", "3,333.3333": thousands separators, at least `places` decimals (a currency's minor unit,
 * 2 by default), full precision beyond.
 */
export function formatMoney(a: Fixed, places = 2): string {
  let intPart: string;
  let fraction: string;
  if (typeof a.c === "number" && a.s < POW10.length) {
    split(a.c, a.s);
    intPart = whole < 1000 ? String(whole) : group(String(whole));
    fraction = fractionText(rest, a.s);
  } else {
    const text = plain(a);
    const point = text.indexOf(".");
    const start = text.charCodeAt(0) === 45 ? 1 : 0;
    intPart = group(point < 0 ? text.slice(start) : text.slice(start, point));
    fraction = point < 0 ? "" : text.slice(point + 1);
  }
  if (fraction.length < places) fraction += ZEROS[places - fraction.length];
  return `${a.c < 0 ? "-" : ""}${intPart}${fraction === "" ? "" : `.${fraction}`}`;
}

/** A rate as a percent: 0.1 → "10%", 0.125 → "12.5%". */
export const formatPercent = (rate: Fixed): string => `${plain(times100(rate))}%`;

/**
 * A rounded amount as a JSON number (4000, 1234.5): the double nearest its value, which is what both
 * Number("1234.50") and the correctly rounded division 123450 / 100 give.
 */
export function amountNumber(rounded: Fixed): number {
  const { c, s } = rounded;
  return typeof c === "number" && s < POW10.length ? c / POW10[s]! : Number(plain(rounded));
}

/** Any amount rounded to the cent as a JSON number (1234.5): what the wire carries. */
export const centsNumber = (a: Fixed): number => amountNumber(roundTo(a, 2));
