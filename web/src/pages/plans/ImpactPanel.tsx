import { Progress, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { ImpactAnswer, PlanImpact } from "../../data/comp-plans/mutations";
import { jobQuery } from "../../data/jobs/queries";
import { ErrorState, LoadingState } from "../../ui/states";
import { ImpactLines } from "./ImpactLines";
import { ImpactByRep, ImpactSummary } from "./ImpactSummary";

interface Props {
  answer: ImpactAnswer;
  currency: string;
  names: Map<string, string>;
}

/** The impact of a change before it is saved (API.md §12); a large plan's is computed by a job first. */
export function ImpactPanel({ answer, currency, names }: Props) {
  if (answer.impact) return <ImpactView impact={answer.impact} currency={currency} names={names} />;
  return <JobImpact jobId={answer.job.id} currency={currency} names={names} />;
}

function JobImpact({ jobId, currency, names }: { jobId: string } & Omit<Props, "answer">) {
  const job = useQuery(jobQuery(jobId));
  if (job.error) return <ErrorState error={job.error} retry={() => void job.refetch()} />;
  if (!job.data) return <LoadingState label="Starting the impact job" lines={2} />;
  const { status, done, total, error, result } = job.data;
  if (status === "failed") return <ErrorState error={new Error(error ?? "The impact job failed.")} />;
  if (status !== "succeeded" || !result) {
    return (
      <Stack gap="xs" aria-busy="true" aria-live="polite">
        <Text size="sm">
          This plan has many lines: the impact is computed in the background (job {jobId}, {status}).
        </Text>
        <Progress value={total ? (100 * done) / total : 0} aria-label="Impact progress" animated />
      </Stack>
    );
  }
  return <ImpactView impact={result as unknown as PlanImpact} currency={currency} names={names} />;
}

function ImpactView({ impact, currency, names }: { impact: PlanImpact } & Omit<Props, "answer">) {
  if (impact.summary.lines === 0) {
    return (
      <Stack gap="sm" data-testid="impact">
        <ImpactSummary impact={impact} currency={currency} />
        <Text size="sm">No line changes: nobody's pay moves with this change.</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="impact">
      <ImpactSummary impact={impact} currency={currency} />
      <ImpactByRep impact={impact} currency={currency} />
      <ImpactLines
        lines={impact.lines.data}
        total={impact.lines.meta.total}
        currency={currency}
        // The impact names everyone with a changed line: no line shows a usr_… id where a name exists.
        names={new Map([...names, ...impact.users.map((u) => [u.user_id, u.name] as const)])}
      />
    </Stack>
  );
}
