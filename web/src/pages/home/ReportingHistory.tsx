import { Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { everyoneQuery, namesOf, type ReportingLine, reportingLinesQuery } from "../../data/users/queries";
import { date } from "../../lib/format";
import { type Column, DataTable } from "../../ui/DataTable";
import { RecordId } from "../../ui/RecordId";

/**
 * Who the person reported to over time (API.md §16), oldest first: what manager overrides are paid on.
 * A manager outside what the viewer sees shows as their id.
 */
export function ReportingHistory({ userId }: { userId: string }) {
  const lines = useQuery(reportingLinesQuery(userId));
  const everyone = useQuery(everyoneQuery());
  const names = namesOf(everyone.data ?? []);
  const columns: Column<ReportingLine>[] = [
    {
      header: "Manager",
      rowHeader: true,
      cell: (line) =>
        line.manager_id === null ? (
          <Text span c="gray.7">
            No manager
          </Text>
        ) : (
          (names.get(line.manager_id) ?? <RecordId id={line.manager_id} label="Manager's id" />)
        ),
    },
    { header: "From", cell: (line) => date(line.effective_from) },
    { header: "To", cell: (line) => (line.effective_to === null ? "today" : date(line.effective_to)) },
  ];
  return (
    <section aria-labelledby="reporting-history">
      <Title order={3} id="reporting-history" mb="sm">
        Reporting history
      </Title>
      <DataTable
        label="Reporting history"
        testId="reporting-history"
        minWidth={0}
        table={{ striped: true }}
        columns={columns}
        query={lines}
        rows={lines.data?.data}
        rowKey={(line) => line.effective_from}
        rowProps={(line) => ({ "data-effective-from": line.effective_from })}
        loading="Loading reporting history"
        loadingLines={2}
        empty={{ title: "No manager on record", children: "They have never reported to anyone here." }}
      />
    </section>
  );
}
