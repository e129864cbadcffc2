import { AppShell, Burger, Button, Group, NavLink, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQueryClient } from "@tanstack/react-query";
import { Link, Outlet, useNavigate, useRouteContext, useRouterState } from "@tanstack/react-router";
import { api, setCsrfToken } from "../api/client";
import { rememberViewer } from "../early-paths";
import { type NavEntry, navFor, SECTION_LABELS } from "../nav";

const SECTIONS = Object.keys(SECTION_LABELS) as NavEntry["section"][];

/** The frame of every signed-in page: the product, the person, the pages their role may open, sign-out. */
export function AppLayout() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = session.user;
  const entries = navFor(user.role);
  const sections = SECTIONS.filter((section) => entries.some((entry) => entry.section === section));

  const signOut = async () => {
    await api.POST("/api/v1/auth/logout");
    setCsrfToken(undefined);
    rememberViewer(undefined);
    queryClient.clear();
    await navigate({ to: "/sign-in", search: { return_to: undefined, reason: "signed-out" } });
  };

  const isActive = (entry: NavEntry, to: string) => {
    const match = entry.match ?? to;
    return match === "/" ? pathname === "/" : pathname === match || pathname.startsWith(`${match}/`);
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={1} size="h4">
              Commissions
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="xs" aria-label="Signed in as">
              {user.name} · {user.role}
            </Text>
            <Button variant="subtle" size="xs" onClick={signOut}>
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
                const to = typeof entry.to === "function" ? entry.to() : entry.to;
                return (
                  <NavLink
                    key={entry.label}
                    component={Link}
                    to={to}
                    label={entry.label}
                    active={isActive(entry, to)}
                    onClick={close}
                  />
                );
              })}
          </div>
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
