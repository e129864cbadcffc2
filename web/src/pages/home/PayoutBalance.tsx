import { Alert } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { payoutBalancesQuery } from "../../data/statements/queries";
import { money } from "../../lib/format";

/**
 * A deficit being recovered: when clawbacks took more than a run paid, what is still owed comes out of
 * the next payout runs, and the person should see it before their pay is smaller than they expect.
 */
export function PayoutBalance({ userId, name }: { userId: string; name?: string }) {
  // The person, finance and admins may read it (API.md §13); a manager viewing a report's home does not ask.
  const { session } = useRouteContext({ from: "/signed-in" });
  const mayRead = session.user.id === userId || session.user.role === "finance" || session.user.role === "admin";
  const balances = useQuery({ ...payoutBalancesQuery(userId), enabled: mayRead });
  const owed = (balances.data ?? []).filter((b) => b.deficit > 0);
  if (owed.length === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      title={name ? `${name} owes a clawback balance` : "You owe a clawback balance"}
      data-testid="payout-deficit"
    >
      {owed.map((b) => (
        <span key={b.currency}>
          {money(b.deficit, b.currency)} is still owed from clawbacks larger than a payout; it comes out of{" "}
          {name ? "their" : "your"} next payout runs.{" "}
        </span>
      ))}
    </Alert>
  );
}
