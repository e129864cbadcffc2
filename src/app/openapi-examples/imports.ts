import { ana } from "./world.js";

/** API.md §19's example file, its dry run, and a users file whose manager is a row of the same file. */

const DEALS_CSV = [
  "external_id,opportunity_name,arr_amount,currency,close_date,owner_id,split_user_ids,split_percents",
  "SF-001,Acme,50000.00,USD,2026-01-15,ana@example.com,ana@example.com;ben@example.com,60;40",
  "SF-002,Globex,1007.00,EUR,2026-03-10,ben@example.com,,",
  "SF-003,Initech,12.345,USD,2026-03-11,ben@example.com,ana@example.com;ben@example.com,33.3333;66.6666",
  "",
].join("\r\n");

const USERS_CSV = [
  "external_id,name,email,role,manager_id,payroll_id",
  "0055e00000AbCdF,Ben Okafor,ben.okafor@acme.example,manager,,004198",
  `${ana.external_id},${ana.name},${ana.email},rep,ben.okafor@acme.example,${ana.payroll_id}`,
  "",
].join("\r\n");

export const IMPORT_REQUESTS: Record<string, unknown> = { importDeals: DEALS_CSV, importUsers: USERS_CSV };

export const IMPORT_OPERATIONS: Record<string, unknown> = {
  importDeals: {
    created: 2,
    updated: 0,
    unchanged: 0,
    errors: [
      { row: 4, field: "arr_amount", message: "must have at most 2 decimal places for USD" },
      { row: 4, field: "split_percents", message: "must sum to exactly 100 (they sum to 99.9999)" },
    ],
    rows: [
      { row: 2, external_id: "SF-001", action: "create" },
      { row: 3, external_id: "SF-002", action: "create" },
      { row: 4, external_id: "SF-003", action: "error" },
    ],
  },
  importUsers: { created: 1, updated: 1, unchanged: 0, errors: [], recalculation_job_id: null },
};
