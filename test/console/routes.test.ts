import type { AnyRoute } from "@tanstack/react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CONSOLE_PAGES } from "../../src/app/console.js";

// web/src/routes.tsx holds the console's pages in one table (PAGES): the router's routes, the
// navigation and the server's list of paths it answers with the console (CONSOLE_PAGES) are held to it
// here, so a page added to one and not the others fails this file.

// The console's modules resolve as Vite does (no file extensions): imported by a path tsc does not
// follow, so the root typecheck leaves them to web/tsconfig.json.
const web = (path: string): Promise<any> => import(`../../web/src/${path}`);

// The API client takes its base URL from the page's location when first imported (in this worker).
beforeAll(() => {
  vi.stubGlobal("location", new URL("http://console.test/"));
});

afterAll(() => {
  vi.unstubAllGlobals();
});

interface Page {
  path: string;
  roles: readonly string[] | "public";
  nav?: { label: string; to?: () => string; match?: string; roles?: readonly string[] };
}

/** "/deals/$dealId" and "/deals/:id" → "/deals/:param": the names of parameters route nothing. */
const shapeOf = (path: string) => path.replace(/[$:][A-Za-z]+/g, ":param");

/** The full path of every route the router can land on (the tree's leaves), layout ids dropped. */
function leafPaths(route: AnyRoute): string[] {
  const children = (route.children ?? []) as AnyRoute[] | Record<string, AnyRoute>;
  const list = Array.isArray(children) ? children : Object.values(children);
  if (list.length === 0) return [route.fullPath === "" ? "/" : route.fullPath];
  return list.flatMap(leafPaths);
}

/** Does a concrete path ("/statements/2026-Q3") open the table's page with this path pattern? */
const opens = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/\$[A-Za-z]+/g, "[^/]+")}$`).test(path.split("?")[0]!);

const ROLES = ["rep", "manager", "finance", "admin"] as const;

describe("routes.tsx: one table for the router, the navigation and the server", () => {
  it("the table's paths are the server's CONSOLE_PAGES, no more and no fewer", async () => {
    const { PAGES } = await web("routes");
    const paths = (Object.values(PAGES) as Page[]).map((page) => shapeOf(page.path));
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual(CONSOLE_PAGES.map(shapeOf).sort());
  });

  it("the router has a route for every page of the table and none besides (but the not-found page)", async () => {
    const { PAGES, makeRouter } = await web("routes");
    const { QueryClient } = await import("@tanstack/react-query");
    const router = makeRouter(new QueryClient());
    const routed = leafPaths(router.routeTree).map((path) => path.replace(/(.)\/$/, "$1"));
    // "/$": every other address, signed in, is the not-found page (the server answers such a page a
    // browser opens with the console, with 404: test/console/serving.test.ts).
    expect(routed.sort()).toEqual([...(Object.values(PAGES) as Page[]).map((page) => page.path), "/$"].sort());
  });

  it("every page has a title of its own", async () => {
    const { PAGES } = await web("routes");
    const titles = (Object.values(PAGES) as { title: string }[]).map((page) => page.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it.each(ROLES)(
    "a %s's navigation lists the table's pages their role may open, each opening its page",
    async (role) => {
      const { PAGES, navFor } = await web("routes");
      const pages = Object.values(PAGES) as Page[];
      const entries = navFor(role) as { label: string; to: () => string; match: string }[];
      // A page may be listed for fewer roles than open it (nav.roles: /draws opens for a rep by a link).
      const expected = pages.filter(
        (page) =>
          page.nav &&
          page.roles !== "public" &&
          page.roles.includes(role) &&
          (!page.nav.roles || page.nav.roles.includes(role)),
      );
      expect(entries.map((entry) => entry.label)).toEqual(expected.map((page) => page.nav!.label));
      for (const [i, entry] of entries.entries()) {
        expect(opens(expected[i]!.path, entry.to()), `${entry.label} → ${entry.to()}`).toBe(true);
        expect(opens(expected[i]!.path, entry.match) || expected[i]!.path.startsWith(entry.match)).toBe(true);
      }
    },
  );

  it("every role's home is in its navigation, and only public pages need no session", async () => {
    const { PAGES, navFor } = await web("routes");
    for (const role of ROLES) expect(navFor(role).map((e: { label: string }) => e.label)).toContain("Home");
    const open = (Object.values(PAGES) as Page[]).filter((page) => page.roles === "public").map((page) => page.path);
    expect(open.sort()).toEqual(["/forgot-password", "/invite", "/reset-password", "/sign-in"]);
  });
});
