import { Stack, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { type ExchangeRateSet, exchangeRatesQuery } from "../../data/exchange-rates/queries";
import { DataTable } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DeleteRatesDialog } from "./DeleteRatesDialog";
import { RatesForm } from "./RatesForm";
import { rateColumns } from "./RatesTable";

const route = getRouteApi("/signed-in/exchange-rates");
const RATES_PAGE_SIZE = 25;

/** Exchange rates (admins): each day's rates per base, entered by pasting or uploading code,rate lines. */
export function ExchangeRatesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [deleting, setDeleting] = useState<ExchangeRateSet | null>(null);
  const sets = useQuery({
    ...exchangeRatesQuery({ page: search.page ?? 1, per_page: RATES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(sets.isSuccess);

  return (
    <Stack gap="md">
      <PageHeader title="Exchange rates">
        Units of each currency per 1 base, by day: deals in another currency than their plan are converted with them.
      </PageHeader>
      <RatesForm />
      <Title order={2} size="h4">
        Rate sets
      </Title>
      <DataTable
        label="Exchange rates"
        testId="rates-table"
        minWidth={640}
        table={{ striped: true, verticalSpacing: "sm" }}
        columns={rateColumns(setDeleting)}
        query={{ error: sets.error, refetch: () => sets.refetch() }}
        rows={sets.data?.data}
        rowProps={(set) => ({ "data-rates": `${set.date} ${set.base}` })}
        loading="Loading exchange rates"
        empty={{ title: "No exchange rates yet", children: "Enter a day's rates above." }}
        pager={{
          meta: sets.data?.meta,
          noun: ["rate set", "rate sets"],
          onPage: (page) => void navigate({ search: { page } }),
        }}
      />
      {deleting && <DeleteRatesDialog set={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}
