import { Button, FileButton, Group, Paper, Stack, Text } from "@mantine/core";
import { type DragEvent, useRef, useState } from "react";
import { decimal } from "../../lib/format";
import type { ChosenFile } from "./read-file";

interface FilePickerProps {
  chosen: ChosenFile | undefined;
  onChoose: (file: File) => void;
  disabled?: boolean;
}

/** Where a CSV file is dropped or chosen; once chosen, its name, rows and columns. */
export function FilePicker({ chosen, onChoose, disabled }: FilePickerProps) {
  const [over, setOver] = useState(false);
  // Cleared after each choice: the same file, fixed and saved again, can be chosen again.
  const reset = useRef<() => void>(null);
  const dragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setOver(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onChoose(file);
  };
  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      data-testid="file-drop"
      data-over={over || undefined}
      onDragOver={dragOver}
      onDragEnter={dragOver}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      style={{
        borderStyle: "dashed",
        borderWidth: 2,
        borderColor: over ? "var(--mantine-color-blue-6)" : undefined,
        background: over ? "var(--mantine-color-blue-0)" : undefined,
      }}
    >
      <Stack gap="xs" align="center">
        {chosen ? (
          <Text fw={600} data-testid="chosen-file">
            {chosen.file.name}: {decimal(chosen.rows)} {chosen.rows === 1 ? "row" : "rows"}, {chosen.headers.length}{" "}
            {chosen.headers.length === 1 ? "column" : "columns"}
          </Text>
        ) : (
          <Text fw={600}>Drop a CSV file here</Text>
        )}
        <Group gap="xs">
          <Text size="sm" c="gray.7">
            {chosen ? "Another file?" : "or"}
          </Text>
          <FileButton
            resetRef={reset}
            onChange={(file) => {
              if (file) onChoose(file);
              reset.current?.();
            }}
            accept=".csv,text/csv"
            disabled={disabled}
          >
            {(props) => (
              <Button {...props} variant={chosen ? "default" : "filled"} size="xs">
                Choose a file
              </Button>
            )}
          </FileButton>
        </Group>
        <Text size="xs" c="gray.7">
          UTF-8 CSV with a header row; up to 50,000 rows and 32 MiB.
        </Text>
      </Stack>
    </Paper>
  );
}
