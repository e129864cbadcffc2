import { Code, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import type { Schemas } from "../../api/types";
import { dealHistoryQuery } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { dateTime } from "../../lib/format";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { AUDIT_ACTION_VERBS, actorInWords } from "../../ui/labels";

type AuditEvent = Schemas["AuditEvent"];

const route = getRouteApi("/signed-in/deals/$dealId");

const statusOf = (body: unknown): string | undefined =>
  body && typeof body === "object" && "status" in body && typeof body.status === "string" ? body.status : undefined;

/** "approved → disputed" when the event moved a status, else nothing. */
function statusChange(event: AuditEvent): string | undefined {
  const before = statusOf(event.before);
  const after = statusOf(event.after);
  if (after && before && before !== after) return `${before} → ${after}`;
  return after && !before ? after : undefined;
}

/** "Approved by Rita Ops": the event as a sentence, the raw action kept as the text's tooltip. */
function EventSentence({ event, names }: { event: AuditEvent; names: ReadonlyMap<string, string> | undefined }) {
  const verb = AUDIT_ACTION_VERBS[event.action] ?? event.action;
  return (
    <>
      <Text size="sm" title={event.action} data-testid="history-event">
        {verb} by {actorInWords(event.actor, names)}
      </Text>
      {event.resource !== "deal" && (
        <Text size="xs" c="gray.7">
          {event.resource} {event.resource_id}
        </Text>
      )}
    </>
  );
}

function columns(names: ReadonlyMap<string, string> | undefined): Column<AuditEvent>[] {
  return [
    { header: "When", cell: (event) => dateTime(event.created_at) },
    { header: "What", cell: (event) => <EventSentence event={event} names={names} /> },
    {
      header: "Change",
      cell: (event) => (
        <>
          {statusChange(event)}
          <details>
            <summary>Before / after</summary>
            <Code block fz="xs">
              {JSON.stringify({ before: event.before, after: event.after }, null, 2)}
            </Code>
          </details>
        </>
      ),
    },
  ];
}

/** The deal's audit trail (GET /deals/{id}/history), newest first, a page at a time. */
export function DealHistory({ dealId }: { dealId: string }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const history = useQuery({ ...dealHistoryQuery(dealId, search.history ?? 1), placeholderData: keepPreviousData });
  const names = useQuery({ ...everyoneQuery(), select: namesOf });
  return (
    <DataTable
      label="History"
      testId="deal-history"
      minWidth={520}
      table={{ fz: "sm" }}
      columns={columns(names.data)}
      loading="Loading the history"
      loadingLines={3}
      empty={{ title: "No history yet" }}
      {...listOf(history, {
        noun: ["event", "events"],
        countId: "history-total",
        onPage: (page) => void navigate({ search: { history: page }, resetScroll: false }),
      })}
    />
  );
}
