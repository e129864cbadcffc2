import { z } from "zod";

type Issue = Parameters<NonNullable<z.core.$ZodConfig["customError"]>>[0];

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "an array",
  null: "null",
};

function received(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  if (typeof input === "number" && Number.isNaN(input)) return "not a number";
  return typeof input === "object" ? "an object" : `a ${typeof input}`;
}

const list = (values: readonly unknown[]) =>
  values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");

function sizeMessage(issue: Issue & { code: "too_big" | "too_small" }): string {
  const big = issue.code === "too_big";
  const bound = big ? issue.maximum : issue.minimum;
  const inclusive = issue.inclusive !== false;
  const word = big ? (inclusive ? "at most" : "less than") : inclusive ? "at least" : "greater than";
  switch (issue.origin) {
    case "string":
      return `must be ${word} ${bound} characters`;
    case "array":
    case "set":
      return `must hold ${word} ${bound} items`;
    default:
      return `must be ${word} ${bound}`;
  }
}

/**
 * The contract's wording for every kind of zod issue (API.md §2: messages written for the client's
 * developer), e.g. "must be one of: rep, manager", "is required". A message a schema states itself wins.
 */
function contractMessage(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}, not ${received(issue.input)}`;
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${list(issue.values)}` : `must be one of: ${list(issue.values)}`;
    case "too_big":
    case "too_small":
      return sizeMessage(issue);
    case "invalid_format":
      return issue.format === "regex" ? "has the wrong format" : `must be a valid ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `has unknown fields: ${issue.keys.join(", ")}`;
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "has an entry that is not allowed";
    case "invalid_union":
      return "matches none of the accepted forms";
    default:
      return "is not valid";
  }
}

z.config({ customError: (issue) => contractMessage(issue) });
