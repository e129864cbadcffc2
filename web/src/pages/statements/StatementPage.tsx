import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useState } from "react";
import { ApiError } from "../../api/errors";
import { statementCsv } from "../../data/statements/csv";
import { statementQuery } from "../../data/statements/queries";
import { userQuery } from "../../data/users/queries";
import { saveFile } from "../../lib/download";
import { nextPeriod, previousPeriod } from "../../lib/periods";
import { ButtonLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { PeriodPicker } from "./PeriodPicker";
import { StatementDraws } from "./StatementDraws";
import { StatementLines } from "./StatementLines";
import { StatementPlans } from "./StatementPlans";
import { StatementTotals } from "./StatementTotals";

const route = getRouteApi("/signed-in/statements/$period");

/**
 * A person's statement for one period: plans, every line by its deal, totals; printable, and as CSV.
 * The picker offers the periods they have lines in; ← → step through periods of the same kind.
 */
export function StatementPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const { period } = route.useParams();
  const search = route.useSearch();
  const userId = search.user ?? session.user.id;
  const own = userId === session.user.id;
  const person = useQuery({ ...userQuery(userId), enabled: !own });
  const statement = useQuery(statementQuery(userId, period));
  const [download, setDownload] = useState<{ busy: boolean; error?: unknown }>({ busy: false });

  const error = statement.error ?? person.error;
  if (error instanceof ApiError && error.status === 404) return <NotFoundState what="statement" />;
  const name = own ? session.user.name : person.data?.name;

  const save = async () => {
    setDownload({ busy: true });
    try {
      const { blob, name } = await statementCsv(userId, period);
      saveFile(blob, name);
      setDownload({ busy: false });
    } catch (err) {
      setDownload({ busy: false, error: err });
    }
  };

  const user = own ? undefined : userId;
  return (
    <Stack gap="lg" className="print-page">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2">
            Statement {period}
          </Title>
          {name && <Text c="dimmed">{name}</Text>}
        </div>
        <Group gap="xs" className="no-print" wrap="wrap" align="flex-end">
          <PeriodPicker userId={userId} period={period} user={user} />
          <ButtonLink
            variant="default"
            size="xs"
            to="/statements/$period"
            params={{ period: previousPeriod(period) }}
            search={{ user }}
          >
            ← {previousPeriod(period)}
          </ButtonLink>
          <ButtonLink
            variant="default"
            size="xs"
            to="/statements/$period"
            params={{ period: nextPeriod(period) }}
            search={{ user }}
          >
            {nextPeriod(period)} →
          </ButtonLink>
          <Button size="xs" variant="light" onClick={() => void save()} loading={download.busy}>
            Download CSV
          </Button>
          <Button size="xs" variant="subtle" onClick={() => window.print()}>
            Print
          </Button>
        </Group>
      </Group>
      {download.error !== undefined && <ErrorState error={download.error} />}
      {error ? (
        <ErrorState error={error} retry={() => void statement.refetch()} />
      ) : !statement.data ? (
        <LoadingState label="Loading the statement" />
      ) : (
        <>
          <StatementPlans statement={statement.data} />
          <StatementLines statement={statement.data} />
          <StatementDraws statement={statement.data} userId={userId} />
          <StatementTotals statement={statement.data} />
        </>
      )}
    </Stack>
  );
}
