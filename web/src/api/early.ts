// GET requests started by web/src/boot.ts before the console's main script has run, handed to the first
// client call that asks for the same path. No framework: boot.ts must stay a few hundred bytes.

/** An early answer older than this is not handed out: the page that asked for it has long loaded. */
const FRESH_FOR_MS = 10_000;

const started = new Map<string, { at: number; response: Promise<Response> }>();

/**
 * Starts `GET path` (path and query, this origin, the session cookie) and keeps the answer for the
 * client (once: a path already started is not asked again). `then`, given the JSON of a 2xx answer, names the requests that depend on it: they are
 * started before this answer is handed out, so the client, which waits for it, finds them.
 */
export function startEarly(path: string, then?: (body: unknown) => string[]): void {
  const already = started.get(path);
  if (already && performance.now() - already.at <= FRESH_FOR_MS) return;
  const response = fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(
    async (answer) => {
      if (then && answer.ok) {
        const next = await answer
          .clone()
          .json()
          .then(then)
          .catch(() => []);
        for (const dependent of next) startEarly(dependent);
      }
      return answer;
    },
  );
  started.set(path, { at: performance.now(), response });
}

/**
 * Drops every early answer not yet taken: they were asked for as whoever was signed in when the page
 * loaded, so after a sign-in, a sign-out or any other write they may no longer be the right ones.
 */
export function forgetEarly(): void {
  started.clear();
}

/** The early answer for this path and query, once: undefined when none was started or it is stale. */
export function takeEarly(path: string): Promise<Response> | undefined {
  const early = started.get(path);
  started.delete(path);
  if (!early || performance.now() - early.at > FRESH_FOR_MS) return undefined;
  return early.response;
}
