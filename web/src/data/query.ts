import type { QueryKey } from "@tanstack/react-query";
import type { ReadEndpoint } from "../api/types";

/** What a query maker makes: TanStack query options keyed by the resource's factory (keys.ts). */
interface Options {
  queryKey: QueryKey;
}

/** Any defined query, whatever its arguments. */
export interface AnyQuery {
  endpoint: string;
  make: (...args: never) => Options;
  from?: AnyQuery;
}

/**
 * A query of the console: the options maker itself (call it as before), with the endpoint it reads.
 * `from` names the query whose keys a derived one reads through (everyone = every page of GET /users).
 */
export type QueryDefinition<Args extends unknown[], Made extends Options> = ((...args: Args) => Made) & {
  endpoint: string;
  make: (...args: Args) => Made;
  from?: AnyQuery;
};

/** Every query the data layer defines, in the order their modules load (test/console/data-keys.test.ts). */
export const queryDefinitions: AnyQuery[] = [];

/** Registers the one query that reads `endpoint` ("GET /api/v1/deals/{id}"). */
export function defineQuery<Args extends unknown[], Made extends Options>(
  endpoint: ReadEndpoint,
  make: (...args: Args) => Made,
): QueryDefinition<Args, Made> {
  return register(endpoint, make);
}

/** Registers a query that reads its endpoint only through `source`'s keys (each page cached there). */
export function deriveQuery<Args extends unknown[], Made extends Options>(
  name: string,
  source: AnyQuery,
  make: (...args: Args) => Made,
): QueryDefinition<Args, Made> {
  return register(`${source.endpoint} (${name})`, make, source);
}

function register<Args extends unknown[], Made extends Options>(
  endpoint: string,
  make: (...args: Args) => Made,
  from?: AnyQuery,
): QueryDefinition<Args, Made> {
  const definition = Object.assign((...args: Args) => make(...args), { endpoint, make, from });
  queryDefinitions.push(definition);
  return definition;
}
