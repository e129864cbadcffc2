import { useState } from "react";

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
