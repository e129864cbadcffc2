import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import {
  type AccountingSettings,
  accountingSettingsQuery,
  type JournalPage,
  journalCsv,
  journalQuery,
  type RollForward,
  rollForwardQuery,
} from "../../data/accounting/queries";
import { saveFile } from "../../lib/download";
import { type Column, DataTable } from "../../ui/DataTable";
import { Money } from "../../ui/Money";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";

const route = getRouteApi("/signed-in/accounting");

type Row = RollForward["data"][number];
type JournalRow = JournalPage["data"][number];

const thisMonth = () => new Date().toISOString().slice(0, 7);
const januaryOf = (month: string) => `${month.slice(0, 4)}-01`;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const FIGURES: [keyof Row, string][] = [
  ["opening", "Opening"],
  ["additions", "Additions"],
  ["adjustments", "Adjustments"],
  ["amortization", "Amortization"],
  ["clawbacks", "Clawbacks"],
  ["impairment", "Impairment"],
  ["closing", "Closing"],
  ["current", "Current"],
  ["noncurrent", "Noncurrent"],
];

const rollForwardColumns: Column<Row>[] = [
  { header: "Currency", rowHeader: true, id: "currency", cell: (r) => r.currency },
  ...FIGURES.map(
    ([key, header]): Column<Row> => ({
      header,
      id: key,
      numeric: true,
      props: () => ({ "data-field": key }),
      cell: (r) => <Money amount={r[key] as number} currency={r.currency} />,
    }),
  ),
];

const summaryColumns: Column<JournalRow>[] = [
  { header: "Currency", id: "currency", cell: (r) => r.currency },
  { header: "Account", rowHeader: true, id: "account", cell: (r) => r.account },
  {
    header: "Debit",
    id: "debit",
    numeric: true,
    props: () => ({ "data-field": "debit" }),
    cell: (r) => (r.debit === null ? "" : <Money amount={r.debit} currency={r.currency} />),
  },
  {
    header: "Credit",
    id: "credit",
    numeric: true,
    props: () => ({ "data-field": "credit" }),
    cell: (r) => (r.credit === null ? "" : <Money amount={r.credit} currency={r.currency} />),
  },
];

/**
 * Commission-cost accounting for finance (API.md §17): the deferred commissions rolled forward over a
 * span of months, and a month's journal to book — its totals per account here, every entry as CSV.
 */
export function AccountingPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const to = search.to ?? thisMonth();
  const from = search.from ?? januaryOf(to);
  const month = search.month ?? to;
  const rollForward = useQuery({ ...rollForwardQuery({ from, to }), placeholderData: keepPreviousData });
  const summary = useQuery({
    ...journalQuery({ month, summary: "true", per_page: 100 }),
    placeholderData: keepPreviousData,
  });
  const settings = useQuery(accountingSettingsQuery());
  useRenderedMark(rollForward.isSuccess && summary.isSuccess && settings.isSuccess);

  return (
    <Stack gap="lg">
      <PageHeader title="Accounting">
        Commissions capitalized under ASC 340-40 and amortized month by month: what the books carry, and each month's
        journal entries.
      </PageHeader>
      {settings.data && <Policy settings={settings.data} />}
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h3">
            Roll-forward of deferred commissions
          </Title>
          <MonthSpan from={from} to={to} onChange={(span) => void navigate({ search: (s) => ({ ...s, ...span }) })} />
          <DataTable
            label="Roll-forward by currency"
            testId="roll-forward"
            minWidth={900}
            columns={rollForwardColumns}
            query={{ error: rollForward.error, refetch: () => rollForward.refetch() }}
            rows={rollForward.data?.data}
            rowProps={(r) => ({ "data-currency": r.currency })}
            loading="Loading the roll-forward"
            empty={{
              title: "Nothing on the books in these months",
              children: "Approved deals' plan, SPIFF and override lines become assets here.",
            }}
          />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h3">
            Journal of {month}
          </Title>
          <JournalMonth month={month} onChange={(m) => void navigate({ search: (s) => ({ ...s, month: m }) })} />
          <DataTable
            label={`Journal totals of ${month} by account`}
            testId="journal-summary"
            minWidth={560}
            columns={summaryColumns}
            query={{ error: summary.error, refetch: () => summary.refetch() }}
            rows={summary.data?.data}
            rowProps={(r) => ({ "data-account": r.account, "data-currency": r.currency })}
            loading="Loading the journal"
            empty={{ title: `No journal entries in ${month}` }}
          />
          {summary.data && summary.data.meta.totals.length > 0 && (
            <Text size="sm" data-testid="journal-balance">
              Balanced:{" "}
              {summary.data.meta.totals.map((t, i) => (
                <span key={t.currency} data-currency={t.currency}>
                  {i > 0 && "; "}
                  debits <Money amount={t.debit} currency={t.currency} /> = credits{" "}
                  <Money amount={t.credit} currency={t.currency} />
                </span>
              ))}
            </Text>
          )}
          <JournalDownloads month={month} />
        </Stack>
      </Card>
    </Stack>
  );
}

const KIND_NAMES: Record<string, string> = { plan: "plan", spiff: "SPIFF", override: "override" };

/** How assets are made now (GET /settings/accounting); a change applies to assets made after it. */
function Policy({ settings }: { settings: AccountingSettings }) {
  const kinds = settings.capitalize_kinds.map((k) => KIND_NAMES[k] ?? k).join(", ");
  const n = settings.renewal_commission_commensurate
    ? "the contract's term (renewals earn a commensurate commission)"
    : `the longer of the contract's term and ${settings.expected_customer_life_months} months of expected customer life`;
  return (
    <Text size="sm" data-testid="accounting-policy">
      Capitalized: {kinds} lines, amortized straight-line over {n}
      {settings.practical_expedient ? "; 12 months or less are expensed when approved" : ""}.
    </Text>
  );
}

function MonthSpan({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (span: { from: string; to: string }) => void;
}) {
  const [draft, setDraft] = useState({ from, to });
  const valid = MONTH.test(draft.from) && MONTH.test(draft.to) && draft.from <= draft.to;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onChange(draft);
      }}
    >
      <Group align="flex-end" gap="sm">
        <TextInput
          type="month"
          label="From"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          w={180}
        />
        <TextInput
          type="month"
          label="To"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
          error={draft.from > draft.to ? "must not be before From" : undefined}
          w={180}
        />
        <Button type="submit" variant="default" disabled={!valid}>
          Show
        </Button>
      </Group>
    </form>
  );
}

function JournalMonth({ month, onChange }: { month: string; onChange: (month: string) => void }) {
  return (
    <TextInput
      type="month"
      label="Month"
      value={month}
      onChange={(e) => {
        const value = e.currentTarget.value;
        if (MONTH.test(value)) onChange(value);
      }}
      w={180}
    />
  );
}

function JournalDownloads({ month }: { month: string }) {
  const [busy, setBusy] = useState<"entries" | "summary" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (which: "entries" | "summary") => {
    setBusy(which);
    setError(null);
    try {
      const file = await journalCsv(which === "summary" ? { month, summary: "true" } : { month });
      saveFile(file.blob, file.name);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button loading={busy === "entries"} onClick={() => void download("entries")}>
          Download the journal (CSV)
        </Button>
        <Button variant="default" loading={busy === "summary"} onClick={() => void download("summary")}>
          Download the totals by account (CSV)
        </Button>
      </Group>
      {error && (
        <Alert color="red" title="The download failed">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
