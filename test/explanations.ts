import { expect } from "vitest";
import type { z } from "zod";
import type { AdjustmentExplanation, PlanExplanation, SpiffExplanation } from "../src/commissions/testing.js";

interface Explanations {
  plan: z.infer<typeof PlanExplanation>;
  spiff: z.infer<typeof SpiffExplanation>;
  adjustment: z.infer<typeof AdjustmentExplanation>;
}

/**
 * A line's explanation as the shape its kind says (the OpenAPI document states the union discriminated
 * by `kind`; the zod type cannot): the line must be of that kind.
 */
export function explanationOf<K extends keyof Explanations>(
  line: { kind: string; explanation: unknown } | undefined,
  kind: K,
): Explanations[K] {
  expect(line?.kind).toBe(kind);
  return line!.explanation as Explanations[K];
}
