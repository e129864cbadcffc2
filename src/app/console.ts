import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError, notFound } from "../errors.js";
import type { App } from "../http/types.js";
import type { KnownRoutes, PageFallback } from "./not-found.js";
import { consoleCsp } from "./security-headers.js";
import { type Asset, asset, type Encoding, IMMUTABLE, REVALIDATE, sendAsset } from "./static-assets.js";

/**
 * The web console's pages (web/src/routes.tsx's PAGES table; test/console/routes.test.ts holds the two
 * equal): each answers with the one HTML page, and the console's router draws the screen. Listed, not
 * a catch-all, so every other path keeps the default-deny answer (401 without credentials, 404 with
 * them) — except a page a browser opens (`consoleFallback`): the console then draws its own not-found
 * page, with its menu.
 */
export const CONSOLE_PAGES = [
  "/",
  "/sign-in",
  "/invite",
  "/forgot-password",
  "/reset-password",
  "/account",
  "/deals",
  "/deals/new",
  "/deals/:id",
  "/deals/:id/edit",
  "/statements",
  "/statements/:period",
  "/what-if",
  "/disputes",
  "/acknowledgements",
  "/acknowledgements/:id",
  "/plan-acknowledgements",
  "/team",
  "/people/:id",
  "/plans",
  "/plans/:id",
  "/people",
  "/exchange-rates",
  "/imports",
  "/spiffs",
  "/audit",
  "/request-log",
  "/jobs",
  "/dispute-queue",
  "/payouts",
  "/payouts/runs/:id",
  "/accounting",
  "/draws",
  "/api-keys",
  "/webhooks",
  "/webhooks/:id",
  "/approvals",
] as const;

/** `npm run build` writes the console here (Vite, then a .br and a .gz beside every asset). */
const BUILT = fileURLToPath(new URL("../../dist/web/", import.meta.url));

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

interface ConsoleFiles {
  page: Asset;
  /** Hashed file name (under /assets/) → the file. */
  assets: Map<string, Asset>;
}

function readAsset(path: string, type: string): Asset {
  const precompressed: Partial<Record<Encoding, Buffer>> = {};
  if (existsSync(`${path}.br`)) precompressed.br = readFileSync(`${path}.br`);
  if (existsSync(`${path}.gz`)) precompressed.gzip = readFileSync(`${path}.gz`);
  return asset(readFileSync(path), type, precompressed);
}

/** The built console, read once into memory (a few hundred KB). Undefined when it was never built. */
function loadConsole(): ConsoleFiles | undefined {
  if (!existsSync(join(BUILT, "index.html"))) return undefined;
  const assets = new Map<string, Asset>();
  const dir = join(BUILT, "assets");
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, readAsset(join(dir, name), type));
  }
  return { page: readAsset(join(BUILT, "index.html"), "text/html; charset=utf-8"), assets };
}

/** The built console, read on first use (undefined when it was never built) and kept. */
export class WebConsole {
  private files: ConsoleFiles | undefined | null = null;

  built(): ConsoleFiles {
    if (this.files === null) this.files = loadConsole();
    if (!this.files) throw new AppError("unavailable", "The web console is not built: run `npm run build`");
    return this.files;
  }

  /** The one HTML page, under the console's CSP. */
  sendPage(req: FastifyRequest, reply: FastifyReply) {
    reply.header("Content-Security-Policy", consoleCsp());
    return sendAsset(req, reply, this.built().page, REVALIDATE);
  }
}

/** Whether the request's Accept asks for an HTML page (a browser's navigation; `*\/*` alone is a program's). */
function asksForHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

function decodedPath(url: string): string | undefined {
  try {
    return decodeURIComponent(url.split("?")[0] ?? "/");
  } catch {
    return undefined;
  }
}

/**
 * A path no route answers, opened by a browser (GET, asking for text/html), outside `/api` and not a
 * path another method knows (that stays a 405): the console's HTML page with status 404, no key asked.
 * The page is public and carries no data; the console's router draws its not-found page (signed in,
 * with the menu). `/api/…` keeps the API's answers exactly (401 without credentials, 404/405 with them).
 */
export function consoleFallback(web: WebConsole, known: KnownRoutes): PageFallback {
  return {
    takes(req) {
      if (req.method !== "GET" || !req.is404 || !asksForHtml(req.headers.accept)) return false;
      const path = decodedPath(req.url);
      if (path === undefined || /^\/+api(\/|$)/i.test(path)) return false;
      return known.allowed(req.url.split("?")[0] ?? "/").length === 0;
    },
    send: (req, reply) => web.sendPage(req, reply.code(404)),
  };
}

/**
 * The console at `{origin}/` (API.md §11): public pages and content-hashed assets cached for a year,
 * compressed at build time, under a CSP that allows this origin's scripts only. Everything it shows
 * comes from /api/v1 with the person's session, like any client.
 */
export function registerConsole(app: App, web: WebConsole): void {
  // Its files are compressed once and kept (static-assets.ts): the compression plugin leaves them alone.
  const options = { config: { public: true }, schema: { hide: true }, compress: false as const };
  // A page's query is the console router's (/sign-in?return_to=…, /statements/2026-Q4?user=…): any is taken.
  const pageOptions = { ...options, schema: { ...options.schema, querystring: z.record(z.string(), z.string()) } };
  for (const path of CONSOLE_PAGES) {
    app.get(path, pageOptions, async (req, reply) => web.sendPage(req, reply));
  }
  app.get<{ Params: { file: string } }>("/assets/:file", options, async (req, reply) => {
    const file = web.built().assets.get(req.params.file);
    if (!file) throw notFound("File", `/assets/${req.params.file}`);
    return sendAsset(req, reply, file, IMMUTABLE);
  });
}
