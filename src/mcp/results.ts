import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { AppError, type ErrorDetail, errorBody } from "../errors.js";

/** A tool's answer: the REST body as JSON text (for the model) and as structuredContent (for programs). */
export function okResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/** An error answer carries the REST error body, so codes and messages read the same on both surfaces. */
export function errorResult(err: AppError, requestId: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(errorBody(err, requestId)) }] };
}

/** zod issues on tool arguments → `validation_error` naming each argument, as REST names each field. */
export function invalidArguments(error: z.ZodError): AppError {
  const details = error.issues.flatMap((issue): ErrorDetail[] => {
    const base = pathOf(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        param: base ? `${base}.${key}` : key,
        message: "is not a recognized argument",
      }));
    }
    return [{ param: base || "arguments", message: issue.message }];
  });
  const summary = details.map((d) => `${d.param} ${d.message}`).join("; ");
  return new AppError("validation_error", `Invalid arguments: ${summary}`, details);
}

function pathOf(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
}
