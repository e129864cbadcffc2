import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useRef, useState } from "react";

/**
 * A filter form's fields as typed, from the filters applied (the URL) until they are applied in turn;
 * started again whenever the applied ones change (Back, a link, Clear).
 */
export function useDraft<T>(applied: T): [T, (next: T) => void] {
  const key = JSON.stringify(applied);
  const [state, setState] = useState({ key, draft: applied });
  if (state.key !== key) setState({ key, draft: applied });
  return [state.key === key ? state.draft : applied, (draft) => setState({ key, draft })];
}

/** The fields as typed, and the applied filters (by their JSON) they were last started from. */
export interface DraftState<T> {
  key: string;
  draft: T;
}

/**
 * The fields once the applied filters are `key`. Filters that arrive from elsewhere (Back, a link,
 * Clear) start the fields again; the arrival of the fields' own last commit (`committed`) keeps them,
 * since the person may have typed on while the URL caught up, and that typing is theirs to keep.
 */
export function draftOn<T>(state: DraftState<T>, key: string, applied: T, committed: string | null): DraftState<T> {
  if (state.key === key) return state;
  return { key, draft: key === committed ? state.draft : applied };
}

/**
 * A filter form whose fields apply themselves once typing pauses for `pauseMs`: `commit` is asked to
 * apply them (move the URL) when they differ from the applied ones.
 */
export function useDraftCommittedOnPause<T>(
  applied: T,
  pauseMs: number,
  commit: (draft: T) => void,
): [T, (next: T) => void] {
  const key = JSON.stringify(applied);
  const committed = useRef<string | null>(null);
  const [state, setState] = useState<DraftState<T>>({ key, draft: applied });
  const current = draftOn(state, key, applied, committed.current);
  if (current !== state) {
    if (key === committed.current) committed.current = null;
    setState(current);
  }
  const [paused] = useDebouncedValue(current.draft, pauseMs);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a pause in typing alone commits the fields
  useEffect(() => {
    const typed = JSON.stringify(paused);
    if (typed === key) return;
    committed.current = typed;
    commit(paused);
  }, [paused]);
  return [current.draft, (draft) => setState({ key, draft })];
}
