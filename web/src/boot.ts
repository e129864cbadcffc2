// The console's first script (vite.config.ts puts it ahead of the main one, which runs after it): it
// asks for the session, then for the page's first data, while the main script (React, the component
// kit, the router) is still being parsed and run. The API client takes these answers (api/early.ts)
// instead of asking again. About 2 KB, no framework.
import { startEarly } from "./api/early";
import { earlyPaths } from "./early-paths";
import { rememberedViewer, type Viewer } from "./lib/remembered";

const PUBLIC_PAGES = ["/sign-in", "/invite", "/forgot-password", "/reset-password"];

if (!PUBLIC_PAGES.includes(location.pathname)) {
  const page = location.pathname;
  startEarly("/api/v1/auth/session", (session) => earlyPaths(page, (session as { user: Viewer }).user));
  // When someone was signed in here last time (most likely still), the page's data starts with the
  // session, not after it: this script runs before the main one, whose run keeps the main thread busy
  // for a few hundred ms, so an answer's follow-ups would wait for it. Nobody remembered, nothing is
  // asked before the session answers: an ended session's 401s count against the address's limit of
  // failed authentications, and one is enough.
  const viewer = rememberedViewer();
  if (viewer !== undefined) for (const path of earlyPaths(page, viewer)) startEarly(path);
}
