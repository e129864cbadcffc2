import { useEffect, useState } from "react";

/**
 * The server's strength rule (API.md §20 (c); src/passwords/strength.ts) run in the browser as the
 * person types, with the same settings and guessable words; the server stays the judge (its 422 is
 * what counts). zxcvbn-ts and its dictionaries (~1 MB compressed) are imported on first use only, so
 * pages without a new password never load them. test/console/strength.web.test.ts holds both equal.
 */
export const MIN_STRENGTH = 3;
export const ESTIMATE_OPTIONS = { maxLength: 64, l33tMaxSubstitutions: 5 } as const;
export const SERVICE_NAME = "Commission Tracking Service";

export interface PasswordOwner {
  email: string;
  name?: string | undefined;
}

export interface Strength {
  /** zxcvbn's 0–4. */
  score: number;
  /** The estimator's warning and suggestions as sentences; empty when the score is enough. */
  hint: string;
}

/** The email, its part before the @ and its pieces, the name and its words, the service's name and words. */
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

type Estimator = (password: string, owner: PasswordOwner | null) => Strength;
let loading: Promise<Estimator> | undefined;

/** zxcvbn-ts with its common and English dictionaries, imported once, on first call. */
export function loadEstimator(): Promise<Estimator> {
  loading ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]).then(([core, common, en]) => {
    const zxcvbn = new core.ZxcvbnFactory({
      ...ESTIMATE_OPTIONS,
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
    });
    return (password, owner) => {
      const result = zxcvbn.check(password, userInputs(owner));
      if (result.score >= MIN_STRENGTH) return { score: result.score, hint: "" };
      const { warning, suggestions } = result.feedback;
      const sentences = [...(warning ? [warning] : []), ...suggestions];
      const hint = (sentences.length > 0 ? sentences : [en.translations.suggestions.anotherWord]).join(" ");
      return { score: result.score, hint };
    };
  });
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Typing pauses this long before an estimate runs (one can take tens of milliseconds). */
const SETTLE_MS = 150;

/**
 * The estimate of what is typed, once typing pauses: undefined while nothing is typed, the estimator
 * loads, or it could not load (the server still judges on save).
 */
export function usePasswordStrength(password: string, owner: PasswordOwner | null): Strength | undefined {
  const [strength, setStrength] = useState<{ for: string; value: Strength } | undefined>();
  const email = owner?.email;
  const name = owner?.name;
  useEffect(() => {
    if (!password) return;
    let live = true;
    const timer = setTimeout(() => {
      loadEstimator().then(
        (estimate) => {
          if (live) setStrength({ for: password, value: estimate(password, email ? { email, name } : null) });
        },
        () => {},
      );
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [password, email, name]);
  return password && strength?.for === password ? strength.value : undefined;
}
