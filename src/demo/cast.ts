import type { DealType, PLAN_PERIODS, ROLES } from "../enums.js";

export type PlanPeriod = (typeof PLAN_PERIODS)[number];

/*
 * Who is in the demo and what they sell under: a small sales team a buyer recognises. Every number
 * here is chosen so each rep's attainment stays between 40 % and 180 % of quota in every period
 * (test/commissions/seed-demo.test.ts holds it through the API).
 */

export type PlanKey = "smb" | "ae" | "enterprise";

export interface DemoPlan {
  key: PlanKey;
  name: string;
  description: string;
  period: PlanPeriod;
  quota: number;
  tiers: { from_attainment: number; rate: number }[];
  deal_type_multipliers?: Record<string, number>;
  min_deal_amount?: number;
  cap_per_period?: number;
}

export const PLANS: DemoPlan[] = [
  {
    key: "smb",
    name: "SMB monthly",
    description: "Inside sales: a monthly quota, a richer rate above it; deals under 1,000 ARR earn nothing.",
    period: "month",
    quota: 40000,
    tiers: [
      { from_attainment: 0, rate: 0.1 },
      { from_attainment: 1, rate: 0.14 },
    ],
    min_deal_amount: 1000,
  },
  {
    key: "ae",
    name: "AE quarterly",
    description: "Account executives: three bands, renewals at half rate, capped at 18,000 a quarter.",
    period: "quarter",
    quota: 150000,
    tiers: [
      { from_attainment: 0, rate: 0.08 },
      { from_attainment: 1, rate: 0.12 },
      { from_attainment: 1.5, rate: 0.15 },
    ],
    deal_type_multipliers: { expansion: 1.1, renewal: 0.5 },
    // Reached only by a quarter well above 150 % (Alex's, two quarters ago): the others stay below it.
    cap_per_period: 18000,
  },
  {
    key: "enterprise",
    name: "Enterprise yearly",
    description: "Enterprise accounts: a yearly quota with an accelerator past 125 %.",
    period: "year",
    quota: 1200000,
    tiers: [
      { from_attainment: 0, rate: 0.06 },
      { from_attainment: 1, rate: 0.09 },
      { from_attainment: 1.25, rate: 0.12 },
    ],
  },
];

export type Role = (typeof ROLES)[number];

export interface DemoPerson {
  key: string;
  name: string;
  role: Role;
  manager?: string;
  /** Reps: their plan, an optional quota of their own, and their attainment in each period before the current one, oldest first. */
  plan?: PlanKey;
  quota_override?: number;
  history?: number[];
}

export const PEOPLE: DemoPerson[] = [
  { key: "avery", name: "Avery Quinn", role: "admin" },
  { key: "farah", name: "Farah Haddad", role: "finance" },
  { key: "morgan", name: "Morgan Blake", role: "manager" },
  {
    key: "sam",
    name: "Sam Ortiz",
    role: "rep",
    manager: "morgan",
    plan: "smb",
    history: [0.92, 1.18, 0.74, 1.41, 1.05],
  },
  {
    key: "priya",
    name: "Priya Shah",
    role: "rep",
    manager: "morgan",
    plan: "smb",
    quota_override: 35000,
    history: [0.68, 0.85, 1.12, 0.97, 1.26],
  },
  { key: "alex", name: "Alex Chen", role: "rep", manager: "morgan", plan: "ae", history: [1.08, 1.72, 0.95] },
  {
    key: "jordan",
    name: "Jordan Reyes",
    role: "rep",
    manager: "morgan",
    plan: "ae",
    // In their first year: a lower quota until the ramp ends.
    quota_override: 120000,
    history: [0.81, 1.02, 1.24],
  },
  { key: "noah", name: "Noah Williams", role: "rep", manager: "morgan", plan: "ae", history: [1.15, 0.88, 1.22] },
  {
    key: "elena",
    name: "Elena Novak",
    role: "rep",
    manager: "morgan",
    plan: "enterprise",
    history: [0.96, 1.12, 1.31],
  },
];

/** How many periods of history a rep has (the current one included), and their deals in each. */
export const HISTORY: Record<PlanPeriod, { periods: number; deals: number }> = {
  month: { periods: 6, deals: 5 },
  quarter: { periods: 4, deals: 7 },
  year: { periods: 4, deals: 10 },
};

/**
 * The current period is under way: attainment so far is 45 % on its first day, rising to 95 % on
 * its last, so it reads like a period in progress whatever day the demo is seeded.
 */
export function currentTarget(elapsed: number): number {
  return 0.45 + 0.5 * elapsed;
}

/** Deals shared between two reps: `back` periods before the owner's current one, `at` through it. */
export interface JointDeal {
  owner: string;
  partner: string;
  percent: number;
  back: number;
  at: number;
  arr: number;
  company: string;
  deal_type: DealType;
}

export const JOINT_DEALS: JointDeal[] = [
  {
    owner: "alex",
    partner: "noah",
    percent: 60,
    back: 1,
    at: 0.4,
    arr: 60000,
    company: "Bluewater Logistics",
    deal_type: "new_business",
  },
  {
    owner: "sam",
    partner: "priya",
    percent: 60,
    back: 2,
    at: 0.5,
    arr: 14000,
    company: "Cedar & Pine Dental",
    deal_type: "new_business",
  },
  {
    owner: "jordan",
    partner: "elena",
    percent: 60,
    back: 1,
    at: 0.7,
    arr: 90000,
    company: "Helix Biotech",
    deal_type: "expansion",
  },
];

export const COMPANIES = [
  "Acme Analytics",
  "Northwind Traders",
  "Brightline Health",
  "Copperleaf Energy",
  "Fjord Outfitters",
  "Granite Peak Capital",
  "Harbor City Transit",
  "Ironwood Manufacturing",
  "Juniper Foods",
  "Kestrel Aerospace",
  "Lumen Retail",
  "Maple Street Bank",
  "Nimbus Software",
  "Orchard Labs",
  "Pioneer Freight",
  "Quarry Materials",
  "Redwood Legal",
  "Summit Hotels",
  "Tidewater Insurance",
  "Union Square Media",
  "Vantage Robotics",
  "Willow Creek Schools",
  "Yellowstone Outdoor",
  "Zephyr Telecom",
  "Atlas Property Group",
  "Beacon Pharmacy",
  "Crescent Wealth",
  "Delta Marine",
  "Evergreen Clinics",
  "Falcon Security",
];
