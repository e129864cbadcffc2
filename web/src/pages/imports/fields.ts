// The columns an import takes (API.md §19), with their names in words and the headers other tools
// write for them (a CRM export's "Close Date", "Owner Email"), which the mapping takes as close matches.

export const IMPORT_RESOURCES = ["deals", "users"] as const;
export type ImportResource = (typeof IMPORT_RESOURCES)[number];

interface FieldInfo {
  label: string;
  /** Other headers meaning this field, compared as `squash` leaves them ("closedate", "owneremail"). */
  aliases: readonly string[];
}

const DEAL_FIELDS = {
  external_id: { label: "External ID", aliases: ["id", "dealid", "opportunityid", "crmid", "sfid", "salesforceid"] },
  opportunity_name: { label: "Opportunity name", aliases: ["name", "opportunity", "deal", "dealname", "account"] },
  arr_amount: { label: "ARR amount", aliases: ["arr", "amount", "annualrecurringrevenue", "value", "dealvalue"] },
  currency: { label: "Currency", aliases: ["currencycode", "curr"] },
  deal_type: { label: "Deal type", aliases: ["type", "opportunitytype"] },
  close_date: { label: "Close date", aliases: ["closed", "closedon", "closedate", "dateclosed"] },
  owner_id: { label: "Owner", aliases: ["owner", "owneremail", "ownerid", "rep", "repemail", "salesrep"] },
  contract_start: { label: "Contract start", aliases: ["startdate", "start", "contractstartdate"] },
  contract_end: { label: "Contract end", aliases: ["enddate", "end", "contractenddate"] },
  split_user_ids: { label: "Split people", aliases: ["splits", "splitusers", "splitemails", "splitowners"] },
  split_percents: { label: "Split percents", aliases: ["splitpercent", "splitpercentages", "splitshares"] },
} as const satisfies Record<string, FieldInfo>;

const USER_FIELDS = {
  external_id: { label: "External ID", aliases: ["id", "employeeid", "hrid", "workerid"] },
  name: { label: "Name", aliases: ["fullname", "employeename", "person"] },
  email: { label: "Email", aliases: ["emailaddress", "workemail", "mail"] },
  role: { label: "Role", aliases: ["userrole", "accessrole"] },
  manager_id: { label: "Manager", aliases: ["manager", "manageremail", "reportsto", "managerid"] },
  manager_effective_from: { label: "Manager from", aliases: ["managerfrom", "managersince", "reportssince"] },
  active: { label: "Active", aliases: ["isactive", "enabled", "status"] },
  payroll_id: { label: "Payroll ID", aliases: ["payroll", "payrollnumber", "employeenumber"] },
} as const satisfies Record<string, FieldInfo>;

export const IMPORT_FIELDS = { deals: DEAL_FIELDS, users: USER_FIELDS } as const;

export type DealField = keyof typeof DEAL_FIELDS;
export type UserField = keyof typeof USER_FIELDS;
export type ImportField = DealField | UserField;

/** A resource's fields in the order API.md §19 lists them (the template's columns). */
export const fieldsOf = (resource: ImportResource): ImportField[] =>
  Object.keys(IMPORT_FIELDS[resource]) as ImportField[];

export function fieldLabel(resource: ImportResource, field: string): string | undefined {
  return (IMPORT_FIELDS[resource] as Record<string, FieldInfo>)[field]?.label;
}

export function aliasesOf(resource: ImportResource, field: ImportField): readonly string[] {
  return (IMPORT_FIELDS[resource] as Record<string, FieldInfo>)[field]?.aliases ?? [];
}

/** The resource in words: "deals", "people". */
export const RESOURCE_WORDS = { deals: ["deal", "deals"], users: ["person", "people"] } as const satisfies Record<
  ImportResource,
  readonly [string, string]
>;
