import { Alert, List, NativeSelect, Table, Text } from "@mantine/core";
import { ScrollTable } from "../../ui/ScrollTable";
import { fieldLabel, fieldsOf, type ImportResource } from "./fields";
import { type Choice, SKIP } from "./mapping";

interface ColumnMappingProps {
  resource: ImportResource;
  headers: readonly string[];
  sample: readonly string[];
  choices: readonly Choice[];
  problems: readonly string[];
  onChange: (column: number, choice: Choice) => void;
  disabled?: boolean;
}

/** A row per column of the file: its header, what its first row holds, and the field it goes to (or skipped). */
export function ColumnMapping({
  resource,
  headers,
  sample,
  choices,
  problems,
  onChange,
  disabled,
}: ColumnMappingProps) {
  const options = [
    { value: SKIP, label: "Skip this column" },
    ...fieldsOf(resource).map((field) => ({ value: field, label: `${fieldLabel(resource, field)} (${field})` })),
  ];
  return (
    <>
      <ScrollTable minWidth={560} label="Columns of the file">
        <Table aria-label="Columns of the file" data-testid="column-mapping" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Column in the file</Table.Th>
              <Table.Th scope="col">First row</Table.Th>
              <Table.Th scope="col" w={300}>
                Imported as
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {headers.map((header, column) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a file's columns are fixed while it is shown
              <Table.Tr key={column} data-column={header}>
                <Table.Th scope="row" fw={500}>
                  {header || <Text c="gray.7">(no name)</Text>}
                </Table.Th>
                <Table.Td>
                  <Text size="sm" c="gray.7" truncate maw={260} title={sample[column]}>
                    {sample[column] || "—"}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={`Import the column ${header || column + 1} as`}
                    data={options}
                    value={choices[column] ?? SKIP}
                    onChange={(event) => onChange(column, event.currentTarget.value as Choice)}
                    disabled={disabled}
                    size="xs"
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {problems.length > 0 && (
        <Alert color="orange" title="Before checking the file" data-testid="mapping-problems">
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </>
  );
}
