import { describe, expect, it } from "vitest";
import { isSetUp, setupSteps } from "../../web/src/pages/home/setup.js";

// An admin's home (#28): the setup checklist — plans, people, assignments, deals, API keys, each done
// once the API lists one — until every step is done, then the task inbox.

const NONE = { plans: 0, people: 0, assignments: 0, deals: 0, apiKeys: 0 };

describe("pages/home/setup.ts: the admin's setup checklist", () => {
  it("lists the five steps in the order a company sets up, each linking to where it is done", () => {
    const steps = setupSteps(NONE);
    expect(steps.map((s) => s.id)).toEqual(["plans", "people", "assignments", "deals", "api-keys"]);
    expect(steps.map((s) => s.to)).toEqual(["/plans", "/people", "/plans", "/deals", "/api-keys"]);
  });

  it("is set up only once every step has at least one record", () => {
    expect(isSetUp(setupSteps(NONE))).toBe(false);
    const all = { plans: 2, people: 4, assignments: 4, deals: 30, apiKeys: 1 };
    expect(isSetUp(setupSteps(all))).toBe(true);
    for (const missing of Object.keys(all)) {
      const steps = setupSteps({ ...all, [missing]: 0 });
      expect(isSetUp(steps), missing).toBe(false);
      expect(steps.filter((s) => s.count === 0)).toHaveLength(1);
    }
  });
});
