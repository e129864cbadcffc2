import { Group, Pagination, Text } from "@mantine/core";

interface Props {
  /** The list's `meta` as the API answered it. */
  meta: { page: number; per_page: number; total: number };
  /** "person" → "1 person" / "3 people" is the caller's: the plural form is given. */
  noun: [one: string, many: string];
  onPage: (page: number) => void;
}

/** The count of matching records and the page buttons of a paginated list (API.md §2). */
export function ListPager({ meta, noun, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(meta.total / meta.per_page));
  return (
    <Group justify="space-between">
      <Text size="sm" c="gray.7" data-testid="list-total">
        {meta.total} {meta.total === 1 ? noun[0] : noun[1]}
      </Text>
      {pages > 1 && (
        <Pagination total={pages} value={meta.page} onChange={onPage} size="sm" aria-label={`${noun[1]} pages`} />
      )}
    </Group>
  );
}
