import type { QueryClient } from "@tanstack/react-query";
import { ApiError } from "../../api/errors";
import { periodsQuery } from "../../data/statements/queries";
import { currentPeriodLabel, openingPeriod } from "../../lib/periods";

/**
 * The period /statements opens for a person: their plan's current period, else the newest they have
 * lines in (GET /users/{id}/periods). Someone the viewer does not see gets this quarter's address,
 * whose page then says the statement does not exist.
 */
export async function openingStatementPeriod(client: QueryClient, userId: string): Promise<string> {
  try {
    return openingPeriod(await client.fetchQuery(periodsQuery(userId)));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return currentPeriodLabel("quarter");
    throw err;
  }
}
