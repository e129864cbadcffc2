import { Alert, Button, Center, Group, Loader, Skeleton, Stack, Text, Title } from "@mantine/core";
import { type ReactNode, useEffect, useRef } from "react";
import { ApiError, isOffline } from "../api/errors";
import { usePageTitle } from "./page-title";

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

/** How often the offline state asks again by itself while the server does not answer. */
export const OFFLINE_RETRY_MS = 5_000;

/**
 * No answer from the server (network down, server stopped): said plainly where the page's content
 * would be — the menu stays — with "Try again", and asked again by itself every few seconds and when
 * the browser comes back online, so the page returns on its own once the server answers.
 */
export function OfflineState({ retry }: { retry?: () => void }) {
  const latest = useRef(retry);
  latest.current = retry;
  useEffect(() => {
    const again = () => latest.current?.();
    const timer = window.setInterval(again, OFFLINE_RETRY_MS);
    window.addEventListener("online", again);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("online", again);
    };
  }, []);
  return (
    <Alert color="gray" title="The server cannot be reached" role="alert" data-testid="offline-state">
      <Stack gap="xs">
        <Text size="sm">
          Check your connection. This page tries again every few seconds and comes back by itself as soon as the server
          answers.
        </Text>
        {retry && (
          <Group>
            <Button size="xs" variant="default" onClick={retry}>
              Try again
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** An error as the API gave it: its message and request id (to quote to an admin), and a retry. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  if (isOffline(error)) return <OfflineState retry={retry} />;
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
export function EmptyState({ title, children, order = 3 }: { title: string; children?: ReactNode; order?: 1 | 3 }) {
  return (
    <Stack align="center" gap="xs" py="xl">
      <Title order={order} size="h4">
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

/**
 * The page for an id outside what the person sees (the API's 404), an address whose parameter is not
 * one (`/statements/garbage`), or an unknown console path: the page's heading, and the tab says so.
 */
export function NotFoundState({ what = "page", children }: { what?: string; children?: ReactNode }) {
  usePageTitle(`${what[0]!.toUpperCase()}${what.slice(1)} not found`, { state: true });
  return (
    <EmptyState order={1} title={`This ${what} does not exist`}>
      {children ??
        "It may have been removed, or it is not one you can see. Check the link, or go back to your home page."}
    </EmptyState>
  );
}

/** A console page the person's role may not open (the API would refuse its calls with 403 anyway). */
export function NotAllowedState({ roles }: { roles: readonly string[] }) {
  usePageTitle("Not allowed", { state: true });
  return (
    <EmptyState order={1} title="You are not allowed to open this page">
      It is for {roles.join(" or ")} users. Ask an admin if you need it, or go back to your home page.
    </EmptyState>
  );
}
