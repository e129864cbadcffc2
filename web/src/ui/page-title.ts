import { useLayoutEffect } from "react";

/** What follows every page's name in the browser's tab, history and bookmarks. */
export const SITE_NAME = "Commission Tracking";

interface Entry {
  title: string;
  /** A state that stands for the whole page (not found, not allowed): it names the tab while shown. */
  state: boolean;
}

const shown: Entry[] = [];

function apply(): void {
  const top = shown.findLast((entry) => entry.state) ?? shown.at(-1);
  document.title = top ? `${top.title} · ${SITE_NAME}` : SITE_NAME;
}

/**
 * Names the browser tab "<title> · Commission Tracking" while the component is shown. The route table
 * names each page; a page-wide state (not found, not allowed) names it instead while it is shown.
 */
export function usePageTitle(title: string, { state = false }: { state?: boolean } = {}): void {
  useLayoutEffect(() => {
    const entry = { title, state };
    shown.push(entry);
    apply();
    return () => {
      shown.splice(shown.indexOf(entry), 1);
      apply();
    };
  }, [title, state]);
}
