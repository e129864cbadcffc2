import { Group, Pagination, Text } from "@mantine/core";

interface Props {
  /** The list's `meta` as the API answered it. */
  meta: { page: number; per_page: number; total: number };
  /** "person" → "1 person" / "3 people" is the caller's: the plural form is given. */
  noun: [one: string, many: string];
  onPage: (page: number) => void;
}

const CONTROL_LABELS = { first: "First page", previous: "Previous page", next: "Next page", last: "Last page" };

/** The count of matching records and the page buttons of a paginated list (API.md §2). */
export function ListPager({ meta, noun, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(meta.total / meta.per_page));
  return (
    <Group justify="space-between">
      <Text size="sm" c="gray.7" data-testid="list-total">
        {meta.total} {meta.total === 1 ? noun[0] : noun[1]}
      </Text>
      {pages > 1 && (
        <nav aria-label={`Pages of ${noun[1]}`}>
          <Pagination
            total={pages}
            value={meta.page}
            onChange={onPage}
            size="sm"
            getItemProps={(page) => ({
              "aria-label": `Page ${page}`,
              "aria-current": page === meta.page ? "page" : undefined,
            })}
            getControlProps={(control) => ({ "aria-label": CONTROL_LABELS[control] })}
          />
        </nav>
      )}
    </Group>
  );
}
