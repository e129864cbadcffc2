import { Card, List, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type CompPlan, type PlanVersion, planVersionsQuery } from "../../data/comp-plans/queries";
import { dateTime, decimal, money, percent } from "../../lib/format";
import { type Column, DataTable } from "../../ui/DataTable";
import { DEAL_TYPE_LABELS } from "../../ui/labels";

type Term = Exclude<keyof PlanVersion, "plan_id" | "version" | "created_at">;
const TERMS: [Term, string][] = [
  ["currency", "Currency"],
  ["period", "Period"],
  ["quota", "Quota"],
  ["base_rate", "Base rate"],
  ["tiers", "Tiers"],
  ["deal_type_multipliers", "Multipliers"],
  ["min_deal_amount", "Minimum deal amount"],
  ["cap_per_period", "Cap per period"],
  ["effective_from", "Effective from"],
  ["effective_to", "Effective to"],
];
/** An override plan's terms: its levels instead of a standard plan's quota, rating and limits. */
const OVERRIDE_TERMS: [Term, string][] = [
  ["currency", "Currency"],
  ["period", "Period"],
  ["override_levels", "Override levels"],
  ["effective_from", "Effective from"],
  ["effective_to", "Effective to"],
];

/** A version's term, written for a person. */
function shown(term: Term, v: PlanVersion): string {
  const value = v[term];
  if (value === null) return "none";
  switch (term) {
    case "quota":
    case "min_deal_amount":
    case "cap_per_period":
      return money(value as number, v.currency);
    case "base_rate":
      return percent(value as number, 4);
    case "tiers": {
      const tiers = v.tiers;
      return tiers.length
        ? tiers.map((t) => `from ${percent(t.from_attainment, 4)}: ${percent(t.rate, 4)}`).join(", ")
        : "none";
    }
    case "override_levels":
      return (v.override_levels ?? []).map((l) => `depth ${l.depth}: ${percent(l.rate, 4)}`).join(", ") || "none";
    case "deal_type_multipliers": {
      const entries = Object.entries(v.deal_type_multipliers);
      return entries.length
        ? entries
            .map(([k, f]) => `${DEAL_TYPE_LABELS[k as keyof typeof DEAL_TYPE_LABELS] ?? k} × ${decimal(f, 6)}`)
            .join(", ")
        : "none";
    }
    default:
      return String(value);
  }
}

/** The terms a version changed from the one before it (the first version states them all). */
function changes(
  terms: [Term, string][],
  version: PlanVersion,
  previous: PlanVersion | undefined,
): { label: string; text: string }[] {
  return terms
    .filter(([term]) => !previous || JSON.stringify(version[term]) !== JSON.stringify(previous[term]))
    .map(([term, label]) => ({
      label,
      text: previous ? `${shown(term, previous)} → ${shown(term, version)}` : shown(term, version),
    }));
}

/** The plan's versions (GET /comp-plans/{id}/versions): when each was made and what it changed. */
export function PlanVersions({ plan }: { plan: CompPlan }) {
  const versions = useQuery(planVersionsQuery(plan.id));
  const list = versions.data?.data ?? [];
  const terms = plan.kind === "override" ? OVERRIDE_TERMS : TERMS;
  const columns: Column<PlanVersion>[] = [
    {
      header: "Version",
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (version) => `v${version.version}${version.version === plan.version ? " (current)" : ""}`,
    },
    { header: "Made", props: () => ({ style: { whiteSpace: "nowrap" } }), cell: (v) => dateTime(v.created_at) },
    {
      header: "Terms it set",
      props: () => ({ fz: "sm" }),
      cell: (version, i) => {
        const set = changes(terms, version, list[i + 1]);
        if (set.length === 0) return "the same terms";
        return (
          <List size="sm" spacing={2}>
            {set.map((c) => (
              <List.Item key={c.label} data-term={c.label}>
                {c.label}: {c.text}
              </List.Item>
            ))}
          </List>
        );
      },
    },
  ];
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Versions
        </Title>
        <Text size="sm" c="dimmed">
          A change to the terms of an active plan makes a new version; each line keeps the version it was calculated
          with. Name, description and status belong to the plan, not to a version.
        </Text>
        <DataTable
          label="Plan versions"
          testId="plan-versions"
          minWidth={640}
          table={{ verticalSpacing: "xs" }}
          columns={columns}
          query={versions}
          rows={versions.data?.data}
          rowKey={(version) => String(version.version)}
          rowProps={(version) => ({ "data-version": version.version })}
          loading="Loading the plan's versions"
          loadingLines={2}
          empty={{ title: "No versions yet" }}
        />
      </Stack>
    </Card>
  );
}
