import { Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { ApiError } from "../../api/errors";
import { userQuery } from "../../data/users/queries";
import { PageHeader } from "../../ui/PageHeader";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { PersonHome } from "./PersonHome";
import { ReportingHistory } from "./ReportingHistory";

const route = getRouteApi("/signed-in/people/$userId");

/** Another person's home as a manager, admin or finance sees it: read-only; outside what they see → 404. */
export function PersonPage() {
  const { userId } = route.useParams();
  const person = useQuery(userQuery(userId));
  if (person.isPending) return <LoadingState label="Loading person" />;
  if (person.error) {
    if (person.error instanceof ApiError && person.error.status === 404) return <NotFoundState what="person" />;
    return <ErrorState error={person.error} retry={() => void person.refetch()} />;
  }
  return (
    <Stack gap="lg">
      <PageHeader title={person.data.name}>{person.data.role} · read-only view</PageHeader>
      <PersonHome userId={userId} name={person.data.name} />
      <ReportingHistory userId={userId} />
    </Stack>
  );
}
