import { Progress, Stack, Text } from "@mantine/core";
import { useEffect, useRef } from "react";
import { decimal } from "../../lib/format";
import type { RunState } from "./useImportRun";

type Running = Extract<RunState, { step: "sending" | "working" }>;

const megabytes = (bytes: number) => `${decimal(bytes / (1024 * 1024), 1)} MB`;

/**
 * The file going up (its share sent), then the server at work on it: an indeterminate bar, since it
 * answers all rows at once ("Checking 50,000 rows…").
 */
export function UploadProgress({ state, rows, fileName }: { state: Running; rows: number; fileName: string }) {
  const shown = useRef<HTMLDivElement>(null);
  // Below a long column list the bar would be out of sight: brought into view once, when it starts.
  useEffect(() => {
    shown.current?.scrollIntoView({ block: "nearest" });
  }, []);
  const rowsText = `${decimal(rows)} ${rows === 1 ? "row" : "rows"}`;
  if (state.step === "sending") {
    const share = state.total > 0 ? Math.min(100, Math.round((state.sent / state.total) * 100)) : 0;
    return (
      <Stack gap={4} aria-busy="true" data-testid="import-progress" ref={shown}>
        <Text size="sm">
          Sending {fileName}: {share}% of {megabytes(state.total)}
        </Text>
        <Progress value={share} aria-label={`Sending ${fileName}`} size="lg" />
      </Stack>
    );
  }
  return (
    <Stack gap={4} aria-busy="true" data-testid="import-progress" ref={shown}>
      <Text size="sm" role="status">
        {state.kind === "check" ? `Checking ${rowsText}…` : `Importing ${rowsText}…`}
      </Text>
      <Progress.Root size="lg" aria-hidden>
        <Progress.Section value={100} striped animated withAria={false} />
      </Progress.Root>
    </Stack>
  );
}
