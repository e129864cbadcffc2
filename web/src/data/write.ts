import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { refresh, type Write } from "./refresh";

interface WriteOptions<Data> {
  /** The key of the record this write deletes (refresh.ts: not asked for again). */
  gone?: QueryKey;
  /** What to do with the answer once what it changed is stale (sign-in caches the new session). */
  afterwards?: (data: Data) => void;
}

/**
 * The one way the console writes: a mutation whose success makes stale what `write`'s row of
 * refresh.ts names (before the caller's own onSuccess runs, so a page reads the new state).
 */
export function useWrite<Variables = void, Data = unknown>(
  write: Write,
  mutationFn: (variables: Variables) => Promise<Data>,
  options: WriteOptions<Data> = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (data) => {
      await refresh(client, write, options.gone);
      options.afterwards?.(data);
    },
  });
}
