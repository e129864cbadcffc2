import { createHash } from "node:crypto";
import Fastify from "fastify";
import { notFound } from "../errors.js";
import type { App } from "../http/types.js";
import { docsCsp } from "./security-headers.js";
import { type Asset, asset, IMMUTABLE, REVALIDATE, sendAsset } from "./static-assets.js";

export const DOCS_TITLE = "Commission Tracking Service API reference";

/**
 * Scalar, local and quiet: no remote fonts or proxy, no SaaS features (Ask AI agent, MCP generator,
 * developer tools with Deploy/Share, the client button).
 */
const SCALAR_OPTIONS = {
  routePrefix: "/docs",
  configuration: {
    url: "/api/v1/openapi.json",
    pageTitle: DOCS_TITLE,
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
  },
};

interface DocsAssets {
  page: Asset;
  bundle: Asset;
  /** `scalar.<hash>.js`: the page's script, cached for a year (its name changes with its content). */
  bundleName: string;
  csp: string;
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** Scalar's plugin in a small app of its own, asked once for its page and bundle. */
async function loadDocs(): Promise<DocsAssets> {
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  const docs = Fastify();
  await docs.register(scalar, SCALAR_OPTIONS as never);
  try {
    const page = await docs.inject({ method: "GET", url: "/docs/" });
    const script = await docs.inject({ method: "GET", url: "/docs/js/scalar.js" });
    if (page.statusCode !== 200 || script.statusCode !== 200) throw new Error("Scalar did not serve its page");
    const bundle = asset(script.rawPayload, "application/javascript; charset=utf-8");
    const bundleName = `scalar.${bundle.hash}.js`;
    // An empty icon: otherwise the browser asks for /favicon.ico, which (like every unknown path) needs a key.
    const html = page.body
      .replace(/src="js\/scalar\.js"/, `src="js/${bundleName}"`)
      .replace("<head>", '<head>\n    <link rel="icon" href="data:," />');
    const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
      (m) => `sha256-${createHash("sha256").update(m[1]!).digest("base64")}`,
    );
    return { page: asset(Buffer.from(html), "text/html; charset=utf-8"), bundle, bundleName, csp: docsCsp(hashes) };
  } finally {
    await docs.close();
  }
}

/**
 * The docs page (API.md §8). Scalar's module is a 4 MB bundle nothing before listen needs, so it is
 * loaded on the first request, then served from memory: compressed (br or gzip), with ETags, the page
 * revalidated and the bundle under a content-hashed name cached for a year; the page's CSP allows
 * exactly its own script and its inline bootstrap.
 */
export async function registerDocs(app: App): Promise<void> {
  let docs: Promise<DocsAssets> | undefined;
  const assets = () => {
    docs ??= loadDocs().catch((err) => {
      docs = undefined; // a failed load is retried on the next request
      throw err;
    });
    return docs;
  };
  // Its files are compressed once and kept (static-assets.ts): the compression plugin leaves them alone.
  const options = { config: { public: true }, schema: { hide: true }, compress: false as const };
  app.get("/docs", options, async (_req, reply) => reply.redirect("/docs/", 301));
  app.get("/docs/", options, async (req, reply) => {
    const { page, csp } = await assets();
    reply.header("Content-Security-Policy", csp);
    return sendAsset(req, reply, page, REVALIDATE);
  });
  app.get<{ Params: { file: string } }>("/docs/js/:file", options, async (req, reply) => {
    const { bundle, bundleName } = await assets();
    // The unhashed name stays for pages cached before an upgrade; it is revalidated every time.
    if (req.params.file === "scalar.js") return sendAsset(req, reply, bundle, REVALIDATE);
    if (req.params.file !== bundleName) throw notFound("File", `/docs/js/${req.params.file}`);
    return sendAsset(req, reply, bundle, IMMUTABLE);
  });
}
