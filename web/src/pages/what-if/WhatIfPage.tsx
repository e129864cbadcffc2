import { Alert, Button, Card, Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { type PreviewBody, usePreviewCommission } from "../../data/commissions/mutations";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { fieldErrors } from "../../lib/field-errors";
import { PageHeader } from "../../ui/PageHeader";
import { PreviewLines } from "./PreviewLines";
import { WhatIfForm } from "./WhatIfForm";

/** "If I close this deal": a deal body priced by POST /commissions/preview, nothing saved. */
export function WhatIfPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  const preview = usePreviewCommission();
  const nameOf = (id: string) => people.data?.get(id) ?? (id === session.user.id ? session.user.name : id);
  const errors = fieldErrors(preview.error);
  const formErrors = Object.keys(errors).length > 0;

  const run = (body: PreviewBody) => preview.mutate(body);

  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title="What-if">
        What a deal would earn if you closed it: the lines the engine would write, nothing saved.
      </PageHeader>
      <Card withBorder>
        <WhatIfForm me={session.user} people={people.data} errors={errors} pending={preview.isPending} onSubmit={run} />
      </Card>
      {preview.error && !formErrors && (
        <Alert color="red" role="alert" title="Could not price this deal">
          {preview.error.message}
        </Alert>
      )}
      {preview.data && (
        <PreviewLines
          preview={preview.data}
          currency={preview.variables?.currency ?? "USD"}
          nameOf={nameOf}
          me={session.user.id}
        />
      )}
      {preview.data && (
        <Button variant="subtle" onClick={() => preview.reset()} w="fit-content">
          Clear
        </Button>
      )}
    </Stack>
  );
}
