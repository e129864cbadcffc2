import { Alert, Button, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { saveCsv } from "../../lib/download";
import { today } from "../../lib/periods";
import { PageHeader } from "../../ui/PageHeader";
import { ColumnMapping } from "./ColumnMapping";
import { FilePicker } from "./FilePicker";
import { IMPORT_RESOURCES, type ImportResource, RESOURCE_WORDS } from "./fields";
import { type Choice, guessMapping, mappingProblems, mappingQuery } from "./mapping";
import { RunOutcome } from "./RunOutcome";
import { type FileReading, readChosenFile } from "./read-file";
import { rememberedMapping, rememberMapping } from "./remembered-mapping";
import { columnNamer } from "./result";
import { templateCsv, templateName } from "./template";
import { UploadProgress } from "./UploadProgress";
import { type RunKind, useImportRun } from "./useImportRun";

const route = getRouteApi("/signed-in/imports");

const RESOURCE_OPTIONS = IMPORT_RESOURCES.map((value) => ({
  value,
  label: value === "deals" ? "Deals" : "People",
}));

/** A file as read, with a number of its own: answers about an earlier file are never shown for it. */
type Reading = FileReading & { id: number };

/**
 * Imports (API.md §19): a CSV of deals or people, its columns matched to fields, checked (a dry run:
 * every row's outcome, nothing written), then imported, all rows or none.
 */
export function ImportsPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const resource: ImportResource = search.resource ?? "deals";
  const [reading, setReading] = useState<Reading | null>(null);
  const [handMapped, setHandMapped] = useState<{ resource: ImportResource; choices: Choice[] } | null>(null);
  const { state, run } = useImportRun();
  const chosen = reading?.ok ? reading.chosen : undefined;
  const [, many] = RESOURCE_WORDS[resource];

  const choices = useMemo(() => {
    if (!chosen) return [];
    if (handMapped?.resource === resource) return handMapped.choices;
    return guessMapping(resource, chosen.headers, rememberedMapping(resource));
  }, [chosen, resource, handMapped]);
  const problems = chosen ? mappingProblems(resource, chosen.headers, choices) : [];
  const map = chosen ? mappingQuery(chosen.headers, choices) : undefined;
  const columnOf = useMemo(() => columnNamer(resource, chosen?.headers ?? [], choices), [resource, chosen, choices]);
  // What an answer was asked for: the file, what it holds and how its columns are read.
  const basis = `${reading?.id}|${resource}|${map ?? ""}`;
  const current = state.step !== "idle" && state.basis === basis ? state : undefined;
  const running = current?.step === "sending" || current?.step === "working";

  const choose = async (file: File) => {
    const read = await readChosenFile(file);
    setHandMapped(null);
    setReading({ ...read, id: (reading?.id ?? 0) + 1 });
  };
  const change = (column: number, choice: Choice) => {
    if (!chosen) return;
    const next = choices.map((before, i) => (i === column ? choice : before));
    setHandMapped({ resource, choices: next });
    rememberMapping(resource, chosen.headers, next);
  };
  const send = (kind: RunKind) => {
    if (chosen) void run(kind, basis, { resource, file: chosen.file, map });
  };
  const downloadTemplate = () =>
    saveCsv(templateCsv(resource, { email: session.user.email, today: today() }), templateName(resource));

  return (
    <Stack gap="lg">
      <PageHeader
        title="Import"
        action={
          <Button variant="default" onClick={downloadTemplate}>
            Download a template for {many}
          </Button>
        }
      >
        Add and update {many} from a CSV file: the file is checked first, and nothing is written until every row is
        right.
      </PageHeader>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="import-resource">
          The file holds
        </Text>
        <SegmentedControl
          aria-labelledby="import-resource"
          w="fit-content"
          data={RESOURCE_OPTIONS}
          value={resource}
          disabled={running}
          onChange={(value) =>
            void navigate({ search: { resource: value === "deals" ? undefined : (value as ImportResource) } })
          }
        />
      </Stack>
      <FilePicker chosen={chosen} onChoose={(file) => void choose(file)} disabled={running} />
      {reading && !reading.ok && (
        <Alert color="red" role="alert" data-testid="file-problem">
          {reading.problem}
        </Alert>
      )}
      {chosen && (
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4">
              Columns
            </Title>
            <Text size="sm" c="gray.7">
              Each column of the file is imported as a field, or skipped. What you choose is remembered in this browser
              for files with the same columns.
            </Text>
          </div>
          <ColumnMapping
            resource={resource}
            headers={chosen.headers}
            sample={chosen.sample}
            choices={choices}
            problems={problems}
            onChange={change}
            disabled={running}
          />
          <Group>
            <Button onClick={() => send("check")} disabled={problems.length > 0 || running}>
              Check the file
            </Button>
          </Group>
          {running && <UploadProgress state={current} rows={chosen.rows} fileName={chosen.file.name} />}
          {current && !running && (
            <RunOutcome
              key={current.attempt}
              state={current}
              resource={resource}
              fileName={chosen.file.name}
              columnOf={columnOf}
              onImport={() => send("import")}
            />
          )}
        </Stack>
      )}
    </Stack>
  );
}
