// Type-checked with the console (web/tsconfig.json: *.web.test.ts), as it imports console code with its imports.
import { describe, expect, it } from "vitest";
import { type DraftState, draftOn } from "../../web/src/lib/draft.js";

// The approval queue's filters apply themselves once typing pauses (useDraftCommittedOnPause). A CI run
// lost "ARR to" typed while the URL was catching up with "ARR from": the URL's arrival started the
// fields again from it. draftOn decides what the fields hold when the applied filters change.

type Filters = { min: string; max: string };
const at = (filters: Filters): DraftState<Filters> => ({ key: JSON.stringify(filters), draft: filters });
const none = { min: "", max: "" };
const minOnly = { min: "2000", max: "" };
const both = { min: "2000", max: "5000" };

describe("draftOn", () => {
  it("the same applied filters: the fields as typed", () => {
    const typing = { key: JSON.stringify(none), draft: both };
    expect(draftOn(typing, JSON.stringify(none), none, null)).toBe(typing);
  });

  it("the fields' own commit arrives while the person typed on: what they typed is kept", () => {
    // "ARR from" committed; "ARR to" typed before the URL caught up.
    const typing = { key: JSON.stringify(none), draft: both };
    const committed = JSON.stringify(minOnly);
    expect(draftOn(typing, committed, minOnly, committed)).toEqual({ key: committed, draft: both });
  });

  it("filters from elsewhere (Back, a link, Clear): the fields start again from them", () => {
    const typing = { key: JSON.stringify(minOnly), draft: both };
    expect(draftOn(typing, JSON.stringify(none), none, JSON.stringify(minOnly))).toEqual(at(none));
    expect(draftOn(typing, JSON.stringify(none), none, null)).toEqual(at(none));
  });
});
