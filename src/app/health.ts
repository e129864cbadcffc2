import { z } from "zod";
import { describeConnectionError, retryAfterSeconds } from "../db/errors.js";
import type { Db } from "../db/schema.js";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";
import { pingDatabase } from "./health-repository.js";

const tags = ["Health"];

export function healthRoutes(app: App, db: Db): void {
  app.get(
    "/healthz",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Liveness",
        operationId: "getLiveness",
        description: "The process is up. No key needed.",
        response: { 200: z.object({ status: z.literal("ok") }) },
      },
    },
    async () => ({ status: "ok" as const }),
  );
  app.get(
    "/readyz",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Readiness",
        operationId: "getReadiness",
        description:
          "The database answers. 503 `unavailable` (with `Retry-After`) when it does not; the message says why.",
        response: { 200: z.object({ status: z.literal("ready") }) },
      },
    },
    async () => {
      try {
        await pingDatabase(db);
      } catch (err) {
        throw new AppError("unavailable", `The database is unavailable: ${describeConnectionError(err)}`, undefined, {
          "Retry-After": String(retryAfterSeconds(err)),
        });
      }
      return { status: "ready" as const };
    },
  );
}
