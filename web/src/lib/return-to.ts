/** Where sign-in sends a person back to: a path of this console only (never another origin). */
export function safeReturnTo(value: unknown): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}
