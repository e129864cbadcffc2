import { Alert, Button, Center, Group, Loader, Skeleton, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { ApiError } from "../api/errors";

/** Loading: a skeleton of a few lines, announced to screen readers. */
export function LoadingState({ label = "Loading", lines = 4 }: { label?: string; lines?: number }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-live="polite">
      <Text size="sm" c="dimmed">
        {label}…
      </Text>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} height={18} radius="sm" />
      ))}
    </Stack>
  );
}

/** A page-level spinner, for the moments before the session is known. */
export function PageLoader() {
  return (
    <Center h="60vh" aria-busy="true">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/** An error as the API gave it: its message and request id (to quote to an admin), and a retry. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const apiError = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return (
    <Alert color="red" title="Could not load this" role="alert">
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        {apiError?.requestId && (
          <Text size="xs" c="dimmed">
            Request id: <code>{apiError.requestId}</code>
          </Text>
        )}
        {retry && (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={retry}>
              Try again
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** Nothing to show yet, said plainly, with what to do about it when there is something. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl">
      <Title order={3} size="h4">
        {title}
      </Title>
      {children && (
        <Text c="dimmed" size="sm" ta="center">
          {children}
        </Text>
      )}
    </Stack>
  );
}

/** The page for an id outside what the person sees (the API's 404), or an unknown console path. */
export function NotFoundState({ what = "page" }: { what?: string }) {
  return (
    <EmptyState title={`This ${what} does not exist`}>
      It may have been removed, or it is not one you can see. Check the link, or go back to your home page.
    </EmptyState>
  );
}

/** A console page the person's role may not open (the API would refuse its calls with 403 anyway). */
export function NotAllowedState({ roles }: { roles: readonly string[] }) {
  return (
    <EmptyState title="You are not allowed to open this page">
      It is for {roles.join(" or ")} users. Ask an admin if you need it, or go back to your home page.
    </EmptyState>
  );
}
