import { Button, Checkbox, Group, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { EVENT_TYPES, type EventName, type EventType } from "../../data/webhooks/queries";
import { fieldErrors } from "../../lib/field-errors";
import { ActionError } from "../../ui/ActionError";

export interface SubscriptionFields {
  url: string;
  events: EventName[];
  description: string | null;
}

/** The error of a list field: `events`, or the first of its items (`events[2]`). */
function listError(errors: Record<string, string>, field: string): string | undefined {
  const key = Object.keys(errors).find((k) => k === field || k.startsWith(`${field}[`) || k.startsWith(`${field}.`));
  return key ? errors[key] : undefined;
}

/**
 * URL, events and description, for a new subscription or an edit. The server checks the URL (https,
 * public addresses only, API.md §6) and its 422 shows on the URL field; nothing changes on error.
 */
export function SubscriptionForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: SubscriptionFields;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (fields: SubscriptionFields) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [all, setAll] = useState(initial ? initial.events.includes("*") : false);
  const [events, setEvents] = useState<EventType[]>(initial?.events.filter((e): e is EventType => e !== "*") ?? []);
  const [description, setDescription] = useState(initial?.description ?? "");
  const [submitted, setSubmitted] = useState(false);
  const errors = fieldErrors(error);
  const noEvents = !all && events.length === 0;
  const urlMissing = url.trim() === "";
  const eventsError = listError(errors, "events") ?? (submitted && noEvents ? "Pick at least one event" : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (urlMissing || noEvents) return;
    onSubmit({ url: url.trim(), events: all ? ["*"] : events, description: description.trim() || null });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Endpoint URL"
          description="https, on a public address; deliveries are POSTed here"
          placeholder="https://example.com/hooks/commissions"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errors.url ?? (submitted && urlMissing ? "Enter the endpoint's URL" : undefined)}
          maxLength={2048}
        />
        <Checkbox
          label="All events, including types added later (*)"
          checked={all}
          onChange={(e) => setAll(e.currentTarget.checked)}
        />
        <Checkbox.Group
          label="Events"
          description={all ? "Every event is sent" : "Pick what to send"}
          value={all ? [] : events}
          // The boxes are EVENT_TYPES: every value checked is an event type.
          onChange={(values) => setEvents(values as EventType[])}
          error={eventsError}
        >
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            {EVENT_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={type} disabled={all} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Textarea
          label="Description"
          description="Optional: what receives these"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={500}
          error={errors.description}
        />
        {Object.keys(errors).length === 0 && <ActionError error={error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
