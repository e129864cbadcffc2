import { AppShell, Burger, Button, Group, NavLink, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQueryClient } from "@tanstack/react-query";
import { Link, Outlet, useNavigate, useRouteContext, useRouterState } from "@tanstack/react-router";
import { api, setCsrfToken } from "../api/client";
import { currentPeriodLabel } from "../lib/periods";

/** The frame of every signed-in page: the product, the person, their pages, and sign-out. */
export function AppLayout() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = session.user;
  const seesTeam = user.role === "manager" || user.role === "admin" || user.role === "finance";

  const signOut = async () => {
    await api.POST("/api/v1/auth/logout");
    setCsrfToken(undefined);
    queryClient.clear();
    await navigate({ to: "/sign-in", search: { return_to: undefined, reason: "signed-out" } });
  };

  const links = [
    { to: "/", label: "Home" },
    { to: `/statements/${currentPeriodLabel("quarter")}`, label: "Statement", match: "/statements" },
    { to: "/what-if", label: "What-if" },
    { to: "/disputes", label: "My disputes" },
    ...(seesTeam ? [{ to: "/team", label: "Team" }] : []),
    { to: "/account", label: "Account" },
  ];

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
      <AppShell.Navbar p="xs" aria-label="Pages">
        {links.map((link) => (
          <NavLink
            key={link.to}
            component={Link}
            to={link.to}
            label={link.label}
            active={link.to === "/" ? pathname === "/" : pathname.startsWith(link.match ?? link.to)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
