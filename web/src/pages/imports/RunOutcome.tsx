import { Alert, Button, Group, List, Stack, Text, Title } from "@mantine/core";
import { type ReactNode, useEffect, useRef } from "react";
import { ApiError } from "../../api/errors";
import { decimal } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { AnchorLink } from "../../ui/AnchorLink";
import { type ImportResource, RESOURCE_WORDS } from "./fields";
import { ResultCounts, ResultTable } from "./ImportResults";
import { type ColumnOf, problemOfDetail, problemText } from "./result";
import type { RunState } from "./useImportRun";

type Outcome = Extract<RunState, { step: "answered" | "refused" | "failed" }>;

interface RunOutcomeProps {
  state: Outcome;
  resource: ImportResource;
  fileName: string;
  columnOf: ColumnOf;
  onImport: () => void;
}

/** An answer's section, brought to the top of the view when it arrives (under the frame's 56 px header). */
function Shown({ outcome, children }: { outcome: string; children: ReactNode }) {
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => {
    shown.current?.scrollIntoView({ block: "start" });
  }, []);
  return (
    <Stack gap="sm" data-testid="import-outcome" data-outcome={outcome} ref={shown} style={{ scrollMarginTop: 72 }}>
      {children}
    </Stack>
  );
}

const counted = (count: number, [one, many]: readonly [string, string]) =>
  `${decimal(count)} ${count === 1 ? one : many}`;

/** What the server answered: the dry run's rows and the way to import them, the import's counts, or why not. */
export function RunOutcome({ state, resource, fileName, columnOf, onImport }: RunOutcomeProps) {
  const words = RESOURCE_WORDS[resource];
  if (state.step === "failed") return <Refusal error={state.error} columnOf={columnOf} />;

  if (state.step === "refused") {
    const rows = new Set(state.errors.map((error) => error.row).filter((row) => row !== null)).size;
    return (
      <Shown outcome="refused">
        <Title order={2} size="h4">
          {state.kind === "import" ? "Nothing was imported" : "The check found errors"}
        </Title>
        <Alert color="red" role="alert">
          {counted(rows, ["row has", "rows have"])} errors: fix them in the file, choose it again and check it. The
          import is all or nothing, so no {words[1]} were written.
        </Alert>
        <ResultTable answer={{ errors: state.errors }} columnOf={columnOf} done />
      </Shown>
    );
  }

  const { answer } = state;
  if (state.kind === "import") {
    return (
      <Shown outcome="imported">
        <Title order={2} size="h4">
          Imported
        </Title>
        <Alert color="green" role="status">
          {fileName} is imported: {decimal(answer.created)} created, {decimal(answer.updated)} updated,{" "}
          {decimal(answer.unchanged)} unchanged.{" "}
          {answer.recalculation_job_id && (
            <>
              Commissions are being recalculated in the background: <AnchorLink to="/jobs">see Jobs</AnchorLink>.
            </>
          )}
        </Alert>
        <ResultCounts answer={answer} done />
        <Group>
          <AnchorLink to={resource === "deals" ? "/deals" : "/people"}>See the {words[1]}</AnchorLink>
        </Group>
      </Shown>
    );
  }

  const rows = answer.rows ?? [];
  const errorRows = rows.filter((row) => row.action === "error").length;
  return (
    <Shown outcome="checked">
      <Title order={2} size="h4">
        What the import will do
      </Title>
      <ResultCounts answer={answer} errorRows={errorRows} done={false} />
      {errorRows > 0 ? (
        <Alert color="red" role="alert" data-testid="check-summary">
          {counted(errorRows, ["row has", "rows have"])} errors. Fix them in the file, choose it again and check it: the
          import is all or nothing, so it waits until every row is right.
        </Alert>
      ) : (
        <Text size="sm" data-testid="check-summary">
          Every row is right. Nothing is written until you import.
        </Text>
      )}
      <Group>
        <Button onClick={onImport} disabled={errorRows > 0 || rows.length === 0} data-testid="import-button">
          Import {counted(rows.length, ["row", "rows"])}
        </Button>
      </Group>
      <ResultTable answer={answer} columnOf={columnOf} done={false} />
    </Shown>
  );
}

/** A refusal of the whole file (413, 415, an unknown column's 422): the API's words, and each detail. */
function Refusal({ error, columnOf }: { error: unknown; columnOf: ColumnOf }) {
  const details = error instanceof ApiError ? (error.details ?? []) : [];
  return (
    <Shown outcome="failed">
      <ActionError error={error} />
      {details.length > 0 && (
        <List size="sm" c="red.9">
          {details.map((detail) => {
            const problem = problemOfDetail(detail);
            return (
              <List.Item key={`${detail.param}:${detail.message}`}>
                {problemText({ row: problem.row ?? null, column: columnOf(problem.field), message: problem.message })}
              </List.Item>
            );
          })}
        </List>
      )}
    </Shown>
  );
}
