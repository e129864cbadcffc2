import "./layout.css";
import { AppShell, Burger, Button, Group, NavLink, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import type { MouseEvent } from "react";
import { useSignOut } from "../data/auth/mutations";
import type { SessionUser } from "../data/auth/queries";

/** A page the navigation lists (routes.tsx makes them from its table). */
export interface NavEntry {
  /** The path, made when the entry is drawn (the current period's statement depends on today). */
  to: () => string;
  label: string;
  /** The path prefix that marks the entry active. */
  match: string;
  section: keyof typeof SECTION_LABELS;
}

export const SECTION_LABELS = {
  pay: "Pay",
  cycle: "Monthly cycle",
  setup: "Plans and people",
  system: "Integrations and logs",
  settings: "Settings",
};

/** The page area, where "Skip to content" lands. */
const MAIN_ID = "main";

const SECTIONS = Object.keys(SECTION_LABELS) as NavEntry["section"][];

/** The frame of every signed-in page: the product, the person, the pages their role may open, sign-out. */
export function AppLayout({ user, entries }: { user: SessionUser; entries: readonly NavEntry[] }) {
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navigate = useNavigate();
  const signOutNow = useSignOut();
  const sections = SECTIONS.filter((section) => entries.some((entry) => entry.section === section));

  const signOut = async () => {
    await signOutNow.mutateAsync(undefined);
    await navigate({ to: "/sign-in", search: { reason: "signed-out" } });
  };

  // The skip link moves focus to the page itself (past the header and the menu), without a hash in the URL.
  const skipToContent = (event: MouseEvent) => {
    event.preventDefault();
    const main = document.getElementById(MAIN_ID);
    main?.focus();
    main?.scrollIntoView();
  };

  const isActive = ({ match }: NavEntry) =>
    match === "/" ? pathname === "/" : pathname === match || pathname.startsWith(`${match}/`);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToContent}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            {/* The product's name, not a heading: each page's own title is its one h1. */}
            <Text fw={700} size="lg" component="p">
              Commissions
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="xs" aria-label="Signed in as">
              {user.name} · {user.role}
            </Text>
            <Button variant="subtle" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Pages" style={{ overflowY: "auto" }}>
        {sections.map((section) => (
          <div key={section}>
            {sections.length > 1 && (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
                {SECTION_LABELS[section]}
              </Text>
            )}
            {entries
              .filter((entry) => entry.section === section)
              .map((entry) => {
                return (
                  <NavLink
                    key={entry.label}
                    component={Link}
                    to={entry.to()}
                    label={entry.label}
                    active={isActive(entry)}
                    onClick={close}
                  />
                );
              })}
          </div>
        ))}
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
