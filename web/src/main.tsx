import "@mantine/core/styles.css";
import "./print.css";
import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ApiError } from "./api/errors";
import { onSessionLost, sessionQuery } from "./data/auth/queries";
import { makeRouter } from "./routes";
import { cssVariablesResolver, theme } from "./ui/theme";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx will not change by asking again; network trouble and 5xx may.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status < 500),
      // Asked even when the browser says it is offline: the page then shows the offline state (which
      // asks again by itself), never a skeleton that waits for ever.
      networkMode: "always",
    },
    mutations: { networkMode: "always" },
  },
});
const router = makeRouter(queryClient);

// The session ended while a page was open (idle or absolute timeout, signed out elsewhere, revoked):
// sign in again, then come back to the same page.
onSessionLost(() => {
  queryClient.setQueryData(sessionQuery().queryKey, null);
  const here = router.state.location.href;
  if (router.state.location.pathname !== "/sign-in") {
    void router.navigate({ to: "/sign-in", search: { return_to: here, reason: "expired" } });
  }
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
