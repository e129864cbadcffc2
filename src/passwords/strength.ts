import { createRequire } from "node:module";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** API.md §20 (c): a password needs a zxcvbn score of at least 3 (of 0–4). */
export const MIN_STRENGTH = 3;

/**
 * The estimate reads the first 64 characters, trying at most 5 l33t substitutions: one estimate, in the
 * event loop, then takes ~15 ms, ~50 ms for the worst inputs found (bench/password-strength.mjs); with
 * zxcvbn's defaults (256, 100) those took ~2.3 s. A longer password is judged by its start.
 */
export const ESTIMATE_OPTIONS = { maxLength: 64, l33tMaxSubstitutions: 5 } as const;

/** Part of every estimate's user inputs (API.md §20 (c): the service name). */
export const SERVICE_NAME = "Commission Tracking Service";

/** Whose password it is, when known: their email and name count as guessable words. */
export interface PasswordOwner {
  email: string;
  name?: string | undefined;
}

/**
 * The words an attacker would try first: the email, its part before the @ and that part's pieces, the
 * name and its words, the service's name and its words (zxcvbn matches each input as a whole word).
 */
export function userInputs(owner: PasswordOwner | null): string[] {
  const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  const inputs = [SERVICE_NAME, ...words(SERVICE_NAME), "cts"];
  if (owner) {
    const local = owner.email.slice(0, owner.email.lastIndexOf("@"));
    inputs.push(owner.email, local, ...words(local));
    if (owner.name) inputs.push(owner.name, ...words(owner.name));
  }
  return [...new Set(inputs.map((w) => w.toLowerCase()))];
}

// zxcvbn-ts and its dictionaries (~5 MB of code and word lists, ~0.25 s to load and index) load on the
// first estimate, never at start-up; from node_modules, not the CLI bundle (bench/cold-start.mjs).
const load = createRequire(import.meta.url);
let estimator: ZxcvbnFactory | undefined;
let fallbackHint = "";

function zxcvbn(): ZxcvbnFactory {
  if (!estimator) {
    const { ZxcvbnFactory: Factory } = load("@zxcvbn-ts/core") as typeof import("@zxcvbn-ts/core");
    const common = load("@zxcvbn-ts/language-common") as typeof import("@zxcvbn-ts/language-common");
    const en = load("@zxcvbn-ts/language-en") as typeof import("@zxcvbn-ts/language-en");
    estimator = new Factory({
      ...ESTIMATE_OPTIONS,
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
    });
    fallbackHint = en.translations.suggestions.anotherWord;
  }
  return estimator;
}

export interface Strength {
  /** zxcvbn's 0–4. */
  score: number;
  /** The estimator's warning and suggestions, as sentences; empty when the score is enough. */
  hint: string;
}

/** zxcvbn's estimate of the password, with `userInputs(owner)` as guessable words. */
export function estimateStrength(password: string, owner: PasswordOwner | null): Strength {
  const result = zxcvbn().check(password, userInputs(owner));
  if (result.score >= MIN_STRENGTH) return { score: result.score, hint: "" };
  const { warning, suggestions } = result.feedback;
  const sentences = [...(warning ? [warning] : []), ...suggestions];
  return { score: result.score, hint: (sentences.length > 0 ? sentences : [fallbackHint]).join(" ") };
}
