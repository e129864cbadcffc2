// The password-strength estimate (API.md §20 (c)) against the built code (run `npm run build` first):
// `node bench/password-strength.mjs`. No database. Measured: (1) the first estimate of the process, which
// loads zxcvbn-ts and its common + English dictionaries (never at start-up: passwords/strength.ts loads
// them on first use), with the RSS it adds; (2) one estimate afterwards, median and max over BENCH_ROUNDS
// (default 20) rounds of typical passwords (the four weak ones of #26, four passphrases), and of the worst
// inputs found (256 characters of l33t, digits or random symbols: the estimate reads their first 64).
// Baseline, same run: one argon2id verification (`verifyPassword`, OWASP parameters; it runs on the libuv
// pool, the estimate in the event loop). Target: the worst inputs' median estimate ≤ 100 ms (it blocks the
// event loop); the max is printed beside it (on a loaded machine, preemption shows there).
import { performance } from "node:perf_hooks";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const dist = new URL("../dist/", import.meta.url);
const { estimateStrength } = await import(new URL("passwords/strength.js", dist).href);
const { hashPassword, verifyPassword } = await import(new URL("passwords/hash.js", dist).href);

const owner = { email: "dana.lopez@example.com", name: "Dana Lopez" };
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (n) => `${n.toFixed(1)} ms`;

function timed(fn) {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

const rssBefore = rssMb();
const first = timed(() => estimateStrength("Harbour-Lantern-Quietly-52", owner));
const rssAfter = rssMb();
console.log(
  `first estimate (loads zxcvbn-ts + dictionaries): ${ms(first)}, RSS +${(rssAfter - rssBefore).toFixed(0)} MB`,
);

const typical = [
  "aaaaaaaaaaaa",
  " ".repeat(12),
  "qwertyuiopasdfgh",
  "1234567890ab",
  "Harbour-Lantern-Quietly-52",
  "tidy-otter-ledger-42",
  "correct horse battery staple",
  "ivy picks a quiet harbour 7",
];
let seed = 7;
const random = () => {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
};
const worst = [
  "p@$$w0rd".repeat(32),
  "1234567890".repeat(26).slice(0, 256),
  Array.from({ length: 256 }, () => String.fromCharCode(33 + Math.floor(random() * 90))).join(""),
];

function measure(passwords) {
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const password of passwords) times.push(timed(() => estimateStrength(password, owner)));
  }
  return { median: median(times), max: Math.max(...times) };
}

const t = measure(typical);
const w = measure(worst);
const hash = await hashPassword("Harbour-Lantern-Quietly-52");
const argon = [];
for (let round = 0; round < Math.min(ROUNDS, 10); round++) {
  const started = performance.now();
  await verifyPassword(hash, "a wrong guess of a password");
  argon.push(performance.now() - started);
}
const baseline = median(argon);
console.log(`one estimate, typical: median ${ms(t.median)}, max ${ms(t.max)}`);
console.log(`one estimate, worst inputs: median ${ms(w.median)} (target ≤ 100 ms), max ${ms(w.max)}`);
console.log(`baseline, one argon2id verification: median ${ms(baseline)}`);
console.log(
  `| password-strength | — | ${ROUNDS} rounds | typical ${ms(t.median)}, worst ${ms(w.median)} (max ${ms(w.max)}); first ${ms(first)} | argon2id verify ${ms(baseline)} | ${(w.median / baseline).toFixed(2)} | worst median ≤ 100 ms | ${w.median <= 100 ? "yes" : "**no**"} |`,
);
