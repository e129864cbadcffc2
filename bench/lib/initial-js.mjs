// What the console's first page load downloads before any lazy page: the scripts and module preloads
// dist/web/index.html names, and every chunk those import statically (followed through the built
// files), measured as the .gz files the server sends.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix } from "node:path";

const STATIC_IMPORT = /(?:^|[^.\w$])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']([^"']+\.js)["']/g;

/** `{ files: [{ file, gzip }], js_gzip, css_gzip }` for the built console in `webDir`. */
export function initialJs(webDir) {
  const html = readFileSync(join(webDir, "index.html"), "utf8");
  const entries = [];
  const styles = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!url || /^[a-z]+:/i.test(url)) continue;
    if (tag.startsWith("<script") || /rel="modulepreload"/.test(tag)) entries.push(url.replace(/^\//, ""));
    else if (/rel="stylesheet"/.test(tag)) styles.push(url.replace(/^\//, ""));
  }
  const seen = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = posix.normalize(queue.shift());
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(webDir, file), "utf8");
    for (const match of code.matchAll(STATIC_IMPORT)) queue.push(posix.join(posix.dirname(file), match[1]));
  }
  const gz = (file) => {
    const path = join(webDir, `${file}.gz`);
    if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build`);
    return statSync(path).size;
  };
  const files = [...seen].map((file) => ({ file, gzip: gz(file) }));
  return {
    files,
    js_gzip: files.reduce((sum, f) => sum + f.gzip, 0),
    css_gzip: styles.reduce((sum, f) => sum + gz(f), 0),
    dir: dirname(join(webDir, "index.html")),
  };
}
