import { Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useRef, useState } from "react";
import { useCreateDeal } from "../../data/deals/mutations";
import { everyoneQuery } from "../../data/users/queries";
import { today } from "../../lib/periods";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealForm } from "./DealForm";
import { dealBody, newDealValues } from "./deal-problems";

/** /deals/new (admins: POST /deals takes the write scope): a pending deal, priced as it is typed. */
export function NewDealPage() {
  const navigate = useNavigate();
  const people = useQuery(everyoneQuery());
  const create = useCreateDeal();
  const [initial] = useState(() => newDealValues(today()));
  // One key per body sent: a second click on the same body replays the first answer (no second deal).
  const attempt = useRef<{ body: string; key: string }>(undefined);
  useRenderedMark(people.data !== undefined);

  return (
    <Stack gap="md">
      <PageHeader title="New deal">
        A pending deal, calculated as soon as it is created; an admin approves it from the approval queue.
      </PageHeader>
      <DealForm
        initial={initial}
        people={people.data}
        submitLabel="Create deal"
        saving={create.isPending}
        error={create.error}
        cancel={() => void navigate({ to: "/deals" })}
        save={(values) => {
          const body = dealBody(values);
          const text = JSON.stringify(body);
          if (attempt.current?.body !== text) attempt.current = { body: text, key: crypto.randomUUID() };
          return create.mutateAsync({ body, idempotencyKey: attempt.current.key });
        }}
      />
    </Stack>
  );
}
