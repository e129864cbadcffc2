import { useEffect } from "react";

/** The Performance API mark a page sets once its data is on screen (bench/console.mjs measures to it). */
export const RENDERED_MARK = "cts:rendered";

/**
 * Marks the moment a page first shows its data: call it with true once every query the page waits on
 * has data. Set once per page mount, so a refetch does not move it.
 */
export function useRenderedMark(ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    performance.clearMarks(RENDERED_MARK);
    performance.mark(RENDERED_MARK);
  }, [ready]);
}
