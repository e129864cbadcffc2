import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useState } from "react";
import type { Schemas } from "../../api/types";
import { type PreviewBody, usePreviewAsTyped } from "../../data/commissions/mutations";

type Preview = Schemas["CommissionPreview"];

/** How long typing pauses before the form asks for a price. */
export const PREVIEW_PAUSE_MS = 400;

export interface DealPreviewState {
  /** The last preview the API answered, for the body it priced (shown, dimmed, while a newer one comes). */
  shown: { body: PreviewBody; preview: Preview } | undefined;
  /** True when the shown preview is the body as typed now. */
  current: boolean;
  /** True while typing has not paused, or the answer for the body as typed is on its way. */
  updating: boolean;
  /** The latest request's refusal (a 422 on a field the form cannot check, an offline server). */
  error: unknown;
}

/**
 * The commission of a deal body as it is typed (POST /commissions/preview): asked once typing pauses;
 * a newer body cancels the request still on its way, so an answer never replaces a newer one.
 * `body` null: nothing to price yet.
 */
export function useDealPreview(body: PreviewBody | null): DealPreviewState {
  const typed = body === null ? null : JSON.stringify(body);
  const [asked] = useDebouncedValue(typed, PREVIEW_PAUSE_MS);
  const preview = usePreviewAsTyped();
  const { mutate, reset } = preview;
  const [shown, setShown] = useState<{ key: string; body: PreviewBody; preview: Preview }>();

  useEffect(() => {
    if (asked === null) {
      reset();
      return;
    }
    const controller = new AbortController();
    const body = JSON.parse(asked) as PreviewBody;
    // Per-call callbacks run for the latest call only (TanStack Query): a cancelled one never lands.
    mutate(
      { body, signal: controller.signal },
      { onSuccess: (answer) => setShown({ key: asked, body, preview: answer }) },
    );
    return () => controller.abort();
  }, [asked, mutate, reset]);

  const aborted = preview.error instanceof DOMException && preview.error.name === "AbortError";
  return {
    shown: shown && { body: shown.body, preview: shown.preview },
    current: typed !== null && shown?.key === typed,
    updating: typed !== null && (typed !== asked || preview.isPending),
    error: typed !== null && typed === asked && !aborted ? preview.error : null,
  };
}
