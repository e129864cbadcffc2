import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * src/boot.ts as the page's first script: module scripts run in document order, so it runs before the
 * main one (`async` would not promise that: the main script, ready at the same moment, often ran first)
 * and starts the session and the page's first requests while the main script runs. Its static imports
 * are preloaded beside it. Built pages only.
 */
function bootScriptFirst(): Plugin {
  return {
    name: "cts-boot-script-first",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        const boot = Object.values(bundle ?? {}).find((c) => c.type === "chunk" && c.isEntry && c.name === "boot");
        if (boot?.type !== "chunk") throw new Error("the boot chunk is missing from the build");
        return [
          {
            tag: "script",
            attrs: { type: "module", crossorigin: true, src: `/${boot.fileName}` },
            injectTo: "head-prepend",
          },
          ...boot.imports
            .filter((file) => !html.includes(`/${file}"`))
            .map((file) => ({
              tag: "link",
              attrs: { rel: "modulepreload", crossorigin: true, href: `/${file}` },
              injectTo: "head-prepend" as const,
            })),
        ];
      },
    },
  };
}

/** The console: built into dist/web (served by the API process at `/`), assets content-hashed. */
export default defineConfig({
  root: here("."),
  plugins: [react(), bootScriptFirst()],
  build: {
    outDir: here("../dist/web"),
    emptyOutDir: true,
    assetsDir: "assets",
    // No inline script or data: module: the CSP allows this origin's files only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // zxcvbn-ts's English dictionary is one 1.2 MB chunk, loaded only where a new password is typed.
    chunkSizeWarningLimit: 1250,
    rolldownOptions: { input: { index: here("index.html"), boot: here("src/boot.ts") } },
  },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
