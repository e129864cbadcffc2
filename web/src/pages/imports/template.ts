import { csvLine } from "./csv-text";
import { fieldsOf, type ImportField, type ImportResource } from "./fields";

// A file to start from, made in the browser: every column API.md §19 lists, in its order, and one
// example row that imports as it is (the person downloading it is its owner, its manager).

interface TemplateOptions {
  /** The signed-in person's email: the example deal's owner, the example person's manager. */
  email: string;
  /** Today, YYYY-MM-DD: the example's dates. */
  today: string;
}

/** The day before the same date next year: a one-year contract's last day. */
function yearLater(today: string): string {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + 1, date.getUTCMonth(), date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

function exampleRow(resource: ImportResource, { email, today }: TemplateOptions): Record<string, string> {
  if (resource === "deals") {
    return {
      external_id: "CRM-0001",
      opportunity_name: "Acme Corp",
      arr_amount: "50000.00",
      currency: "USD",
      deal_type: "new_business",
      close_date: today,
      owner_id: email,
      contract_start: today,
      contract_end: yearLater(today),
      split_user_ids: email,
      split_percents: "100",
    };
  }
  return {
    external_id: "HR-0001",
    name: "Ana Example",
    email: "ana.example@example.com",
    role: "rep",
    manager_id: email,
    manager_effective_from: today,
    active: "true",
    payroll_id: "P-0001",
  };
}

/** The template's text: a header row and one example row, CRLF as RFC 4180 writes it. */
export function templateCsv(resource: ImportResource, options: TemplateOptions): string {
  const fields: ImportField[] = fieldsOf(resource);
  const example = exampleRow(resource, options);
  return `${csvLine(fields)}\r\n${csvLine(fields.map((field) => example[field] ?? ""))}\r\n`;
}

export const templateName = (resource: ImportResource): string => `${resource}-import-template.csv`;
