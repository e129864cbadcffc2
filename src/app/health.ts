import { sql } from "kysely";
import { z } from "zod";
import type { Kdb } from "../db/connect.js";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";

const tags = ["Health"];

export function healthRoutes(app: App, db: Kdb): void {
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
        description: "The database answers. 503 `unavailable` when it does not.",
        response: { 200: z.object({ status: z.literal("ready") }) },
      },
    },
    async () => {
      try {
        await sql`SELECT 1`.execute(db);
      } catch {
        throw new AppError("unavailable", "The database is unavailable");
      }
      return { status: "ready" as const };
    },
  );
}
