import { Alert, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "../../api/errors";
import type { Schemas } from "../../api/types";
import { type PlanImpact, useApplyPlanEdit, usePreviewImpact } from "../../data/comp-plans/mutations";
import { type CompPlan, planQuery } from "../../data/comp-plans/queries";
import { jobQuery } from "../../data/jobs/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { signedMoney } from "../../lib/format";
import { ImpactPanel } from "./ImpactPanel";
import { PlanFields } from "./PlanFields";
import { planErrorsInWords, planProblems } from "./plan-problems";
import { editBody, type PlanValues, valuesOf } from "./plan-values";
import { RetroactiveApply } from "./RetroactiveApply";

interface Base {
  plan: CompPlan;
  etag: string | null;
}

/**
 * Changing a plan: the form over its terms, the change's impact (POST /comp-plans/{id}/impact) before
 * anything is saved, then apply — with or without correcting locked history. The edit carries the ETag
 * of the plan it started from, so a change someone made in between is refused (412), never overwritten.
 * Finance sees the same preview and no way to apply.
 */
export function PlanChange({ base: loaded, canApply }: { base: Base; canApply: boolean }) {
  const [base, setBase] = useState<Base | null>(null);
  const [form, setForm] = useState<PlanValues | null>(null);
  // Once a preview was asked for: what the form finds wrong as it is now (in words), before any send.
  const [tried, setTried] = useState(false);
  const [previewed, setPreviewed] = useState<string | null>(null);
  const [saved, setSaved] = useState<Schemas["CompPlanWritten"] | null>(null);
  const preview = usePreviewImpact(loaded.plan.id);
  const apply = useApplyPlanEdit(loaded.plan.id);
  const editable = useQuery({ ...planQuery(loaded.plan.id), enabled: false });
  const names = useQuery({ ...everyoneQuery(), select: namesOf }).data ?? new Map<string, string>();
  const job = useQuery({ ...jobQuery(preview.data?.job?.id ?? ""), enabled: Boolean(preview.data?.job) });

  const start = (from: Base) => {
    setBase(from);
    setForm(valuesOf(from.plan));
    setTried(false);
    setPreviewed(null);
    preview.reset();
    apply.reset();
  };
  const close = () => {
    setBase(null);
    setForm(null);
    preview.reset();
    apply.reset();
  };

  if (!base || !form) {
    return (
      <Card withBorder>
        <Stack gap="sm">
          {saved && <SavedNotice saved={saved} />}
          <Group justify="space-between" wrap="wrap">
            <div>
              <Title order={3} size="h4">
                {canApply ? "Change the plan" : "Try a change"}
              </Title>
              <Text size="sm" c="dimmed">
                {canApply
                  ? "Edit the terms, see who it affects and by how much, then apply."
                  : "See what a change to the terms would do to everyone's pay. Nothing is saved."}
              </Text>
            </div>
            <Button
              onClick={() => {
                setSaved(null);
                start(loaded);
              }}
            >
              {canApply ? "Edit terms" : "Try a change"}
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  }

  const body = editBody(base.plan, form);
  const bodyKey = JSON.stringify(body);
  const unchanged = Object.keys(body).length === 0;
  const current = previewed === bodyKey && preview.data !== undefined;
  const ready = current && (preview.data?.impact !== undefined || job.data?.status === "succeeded");
  const stale = apply.error instanceof ApiError && apply.error.status === 412;
  const problems = tried ? planProblems(form) : {};
  const errors =
    Object.keys(problems).length > 0
      ? problems
      : planErrorsInWords({ ...fieldErrors(preview.error), ...fieldErrors(apply.error) }, form);
  // Errors that name no field are shown by the button that caused them.
  const unplaced = (e: Error | null) =>
    e && !(e instanceof ApiError && (e.status === 412 || e.details?.length)) ? e : null;

  const runPreview = () => {
    setTried(true);
    if (Object.keys(planProblems(form)).length > 0) return;
    setPreviewed(bodyKey);
    apply.reset();
    preview.mutate(body);
  };
  const runApply = async (retroactive: boolean) => {
    const result = await apply.mutateAsync({ body: retroactive ? { ...body, retroactive } : body, etag: base.etag });
    setSaved(result);
    close();
  };
  const reload = async () => {
    const latest = await editable.refetch();
    if (latest.data) start(latest.data);
  };

  return (
    <Card withBorder>
      <Stack gap="md">
        <Title order={3} size="h4">
          {canApply
            ? `Change ${base.plan.name} (from version ${base.plan.version})`
            : "Try a change (nothing is saved)"}
        </Title>
        <PlanFields
          values={form}
          onChange={setForm}
          errors={errors}
          withStatus
          headings={4}
          actions={
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button onClick={runPreview} loading={preview.isPending} disabled={unchanged}>
                Preview impact
              </Button>
            </Group>
          }
        />
        {unchanged && (
          <Text size="sm" c="dimmed">
            Change a term to see its impact.
          </Text>
        )}
        <Refusal error={unplaced(preview.error)} />
        {current && preview.data && (
          <Stack gap="sm">
            <Title order={4} size="h5">
              Impact of this change
            </Title>
            <ImpactPanel answer={preview.data} currency={form.currency || base.plan.currency} names={names} />
          </Stack>
        )}
        {previewed !== null && !current && !preview.isPending && !unchanged && preview.data && (
          <Text size="sm" c="orange.9">
            The form changed since the impact was shown: preview it again.
          </Text>
        )}
        <Refusal error={unplaced(apply.error)} />
        {stale && (
          <Alert color="orange" role="alert" title="Someone else changed this plan since you opened it">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                Nothing was saved. Reload the latest version, make your change again on top of it, and preview its
                impact before applying.
              </Text>
              <Button size="xs" color="orange.9" onClick={() => void reload()} loading={editable.isFetching}>
                Reload the latest version
              </Button>
            </Stack>
          </Alert>
        )}
        {canApply && ready && !stale && (
          <Group justify="flex-end" wrap="wrap">
            <RetroactiveApply
              planName={base.plan.name}
              impact={preview.data?.impact ?? (job.data?.result as PlanImpact | undefined)}
              currency={form.currency || base.plan.currency}
              pending={apply.isPending}
              error={apply.isError && apply.variables?.body.retroactive ? apply.error : null}
              onConfirm={() => runApply(true)}
            />
            <Button onClick={() => void runApply(false).catch(() => {})} loading={apply.isPending}>
              Apply
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** What the API said when it refused a request for no one field: its message and request id. */
function Refusal({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" title="The API refused this">
      {error.message}
      {error instanceof ApiError && error.requestId && ` (request ${error.requestId})`}
    </Alert>
  );
}

function SavedNotice({ saved }: { saved: Schemas["CompPlanWritten"] }) {
  const retro = saved.retroactive_adjustments;
  return (
    <Alert color="teal" title={`Saved: ${saved.name} is now version ${saved.version}`} data-testid="saved-notice">
      {retro ? (
        <Text size="sm" data-testid="retroactive-adjustments">
          {retro.count} retroactive adjustment line{retro.count === 1 ? "" : "s"} written, totalling{" "}
          {signedMoney(retro.sum, saved.currency)}.
        </Text>
      ) : (
        <Text size="sm">Pending lines were recalculated; locked lines keep their amounts.</Text>
      )}
    </Alert>
  );
}
