import { Alert, Group, List, Loader, Stack, Table, Text, Title } from "@mantine/core";
import { money } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { LINE_KIND_LABELS } from "../../ui/labels";
import { dealErrorsOf } from "./deal-problems";
import type { DealPreviewState } from "./useDealPreview";

/** What the preview waits for, by the parameter the form names, in words. */
const WAITS_FOR: Record<string, string> = {
  owner_id: "an owner",
  arr_amount: "an ARR",
  currency: "a three-letter currency code",
  close_date: "a close date",
  splits: "shares that add up to 100 %",
};

interface Props {
  state: DealPreviewState;
  /** The fields the preview waits for (none: it is asked for). */
  waiting: string[];
  nameOf: (id: string) => string;
  /** An edit of a stored deal (else a new one): the words above the lines. */
  editing: boolean;
}

/**
 * The commission the deal would earn, as the API prices it while the form is typed in: each person's
 * lines and the total, the API's numbers only (POST /commissions/preview writes nothing).
 */
export function DealPreview({ state, waiting, nameOf, editing }: Props) {
  const { shown, current, updating, error } = state;
  const refused = dealErrorsOf(error);
  return (
    <Stack gap="sm" data-testid="deal-preview" data-state={current && !updating ? "current" : "updating"}>
      <Group justify="space-between">
        <Title order={2} size="h4">
          Commission preview
        </Title>
        {updating && waiting.length === 0 && <Loader size="xs" aria-label="Pricing the deal" />}
      </Group>
      <Text size="sm" c="gray.7">
        {editing
          ? "What the deal would earn if saved with these values. Nothing changes until you save."
          : "What the deal would earn if created now. Nothing is saved until you create it."}
      </Text>
      {waiting.length > 0 ? (
        <Text size="sm" data-testid="preview-waits">
          The preview shows once the deal has {listed(waiting.map((field) => WAITS_FOR[field] ?? field))}.
        </Text>
      ) : error && !updating ? (
        Object.keys(refused).length > 0 ? (
          <Alert color="red" title="The API cannot price these values" role="alert">
            <List size="sm">
              {Object.entries(refused).map(([param, words]) => (
                <List.Item key={param}>{words}</List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <ActionError error={error} />
        )
      ) : shown ? (
        <Stack gap="xs" opacity={current ? 1 : 0.55} aria-busy={updating}>
          <PreviewTable preview={shown.preview} currency={shown.body.currency ?? "USD"} nameOf={nameOf} />
          {shown.preview.explanation?.no_plan.map((missing) => (
            <Text size="sm" c="gray.7" key={missing.user_id} data-testid="preview-no-plan">
              {nameOf(missing.user_id)} earns no plan line: {missing.reason}.
            </Text>
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="gray.7" aria-busy="true">
          Pricing the deal…
        </Text>
      )}
    </Stack>
  );
}

function PreviewTable({
  preview,
  currency,
  nameOf,
}: {
  preview: NonNullable<DealPreviewState["shown"]>["preview"];
  currency: string;
  nameOf: (id: string) => string;
}) {
  return (
    <Table aria-label="Commission lines the deal would earn" fz="sm" verticalSpacing={6}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Person and line</Table.Th>
          <Table.Th scope="col" ta="right">
            Commission
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {preview.lines.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={2}>
              <Text size="sm" c="gray.7">
                No commission lines.
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
        {preview.lines.map((line) => (
          // A person earns one line per plan and per SPIFF: that names a preview line (it has no id yet).
          <Table.Tr
            key={`${line.user_id}-${line.kind}-${line.spiff_id ?? line.plan_id}`}
            data-testid="preview-line"
            data-user-id={line.user_id}
            data-kind={line.kind}
          >
            <Table.Th scope="row" fw={400}>
              <Text size="sm" fw={500} data-testid="preview-line-person">
                {nameOf(line.user_id)}
              </Text>
              <Text size="xs" c="gray.7">
                {LINE_KIND_LABELS[line.kind]} line · {line.period}
              </Text>
            </Table.Th>
            <Table.Td ta="right" style={{ whiteSpace: "nowrap" }} data-testid="preview-line-amount">
              {money(line.amount, currency)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row">Total</Table.Th>
          <Table.Td ta="right" fw={700} style={{ whiteSpace: "nowrap" }} data-testid="preview-total">
            {money(preview.total_commission, currency)}
          </Table.Td>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

/** "a, b and c". */
function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
