import { useEffect, useRef } from "react";

export interface QueueShortcuts {
  next: () => void;
  previous: () => void;
  toggle: () => void;
  approve: () => void;
  reject: () => void;
  open: () => void;
}

/** The keys, as the help line shows them. */
export const SHORTCUT_KEYS: Record<keyof QueueShortcuts, string> = {
  next: "j",
  previous: "k",
  toggle: "x",
  approve: "a",
  reject: "r",
  open: "o",
};

/** True while the person types: a text field, a list box's search, an editable region. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) {
    return true;
  }
  return target instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit"].includes(target.type);
}

/**
 * The queue's single-key shortcuts on the focused row. Never while typing, never with a modifier, and
 * not while a dialog or drawer is open (`enabled`).
 */
export function useQueueShortcuts(enabled: boolean, actions: QueueShortcuts): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!enabled) return;
    const byKey = new Map(Object.entries(SHORTCUT_KEYS).map(([action, key]) => [key, action as keyof QueueShortcuts]));
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
      const action = byKey.get(e.key);
      if (!action) return;
      e.preventDefault();
      latest.current[action]();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled]);
}
