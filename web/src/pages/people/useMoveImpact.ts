import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useState } from "react";
import { type ReportingChangeBody, type ReportingImpact, usePreviewReportingChange } from "../../data/users/mutations";

/** How long picking pauses before the dialog asks what the move changes (the deal form's pause). */
export const MOVE_PREVIEW_PAUSE_MS = 400;

export interface MoveImpactState {
  /** The last impact the API answered (shown, dimmed, while a newer one comes). */
  shown: ReportingImpact | undefined;
  /** True when the shown impact is that of the body as picked now. */
  current: boolean;
  /** True while picking has not paused, or the answer for the body as picked is on its way. */
  updating: boolean;
  /** The latest request's refusal (a 422: a date before the current line, a cycle). */
  error: unknown;
}

/**
 * What a manager change would do to override lines (POST /users/{id}/reporting-lines/impact with the
 * body the PATCH would send), asked once picking pauses; a newer body cancels the request still on its
 * way, as the deal form's preview does. `body` null: no change to preview.
 */
export function useMoveImpact(userId: string, body: ReportingChangeBody | null): MoveImpactState {
  const picked = body === null ? null : JSON.stringify(body);
  const [asked] = useDebouncedValue(picked, MOVE_PREVIEW_PAUSE_MS);
  const preview = usePreviewReportingChange();
  const { mutate, reset } = preview;
  const [shown, setShown] = useState<{ key: string; impact: ReportingImpact }>();

  useEffect(() => {
    if (asked === null) {
      reset();
      return;
    }
    const controller = new AbortController();
    const body = JSON.parse(asked) as ReportingChangeBody;
    // Per-call callbacks run for the latest call only (TanStack Query): a cancelled one never lands.
    mutate(
      { id: userId, body, signal: controller.signal },
      { onSuccess: (impact) => setShown({ key: asked, impact }) },
    );
    return () => controller.abort();
  }, [asked, mutate, reset, userId]);

  const aborted = preview.error instanceof DOMException && preview.error.name === "AbortError";
  return {
    shown: picked === null ? undefined : shown?.impact,
    current: picked !== null && shown?.key === picked,
    updating: picked !== null && (picked !== asked || preview.isPending),
    error: picked !== null && picked === asked && !aborted ? preview.error : null,
  };
}
