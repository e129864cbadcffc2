import type { Page } from "@playwright/test";
import { asAdmin, type SeededUser, state } from "./api.js";
import { expect, signIn, test } from "./fixtures.js";
import { waitOf } from "./waits.js";
import { ownPlan, ownRep } from "./workbench-data.js";

// The import page (API.md §19, issue #30) against the API's own answers for the same file: a dry run
// names exactly the rows and columns the API names, the import creates what GET /deals then counts, and
// the same file again changes nothing. The reps are the spec's own (no seeded page changes).

test.use({ locale: "en-US" });

interface ImportAnswer {
  created: number;
  updated: number;
  unchanged: number;
  errors: { row: number; field: string | null; message: string }[];
  rows?: { row: number; external_id: string | null; action: string }[];
}

/** POST /imports/deals with the admin key, as any client sends a file. */
async function importAsAdmin(csv: string, query: Record<string, string>): Promise<ImportAnswer> {
  const { url, adminKey } = state();
  const res = await fetch(`${url}/api/v1/imports/deals?${new URLSearchParams(query)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "text/csv" },
    body: csv,
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`import → ${res.status}: ${JSON.stringify(body)}`);
  return body as ImportAnswer;
}

const HEADER = [
  "external_id",
  "opportunity_name",
  "arr_amount",
  "currency",
  "deal_type",
  "close_date",
  "owner_id",
  "split_user_ids",
  "split_percents",
];

/** 1,000 deals of two reps (every tenth split 60/40 between them), closed over last year. */
function dealRows(tag: string, [ann, ben]: [SeededUser, SeededUser]): string[][] {
  const year = new Date().getUTCFullYear() - 1;
  return Array.from({ length: 1000 }, (_, i) => {
    const owner = i % 2 === 0 ? ann : ben;
    const split = i % 10 === 0;
    const day = new Date(Date.UTC(year, 0, 1 + (i % 360))).toISOString().slice(0, 10);
    return [
      `IMP-${tag}-${String(i + 1).padStart(4, "0")}`,
      // A quoted comma in every name: the file is RFC 4180, not "split on commas".
      `Import ${tag} #${i + 1}, ${i % 3 === 0 ? "renewal" : "new logo"}`,
      (1000 + i * 7.25).toFixed(2),
      "USD",
      i % 3 === 0 ? "renewal" : "new_business",
      day,
      owner.email,
      split ? `${ann.email};${ben.id}` : "",
      split ? "60;40" : "",
    ];
  });
}

const csvOf = (rows: string[][]) =>
  `${[HEADER, ...rows].map((cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(",")).join("\r\n")}\r\n`;

async function chooseFile(page: Page, name: string, csv: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csv) });
}

/** The page's counts (data-count of each box) against an answer's. */
async function expectCounts(
  page: Page,
  answer: Pick<ImportAnswer, "created" | "updated" | "unchanged">,
  errors?: number,
) {
  await expect(page.getByTestId("count-create").locator("[data-count]")).toHaveAttribute(
    "data-count",
    String(answer.created),
  );
  await expect(page.getByTestId("count-update").locator("[data-count]")).toHaveAttribute(
    "data-count",
    String(answer.updated),
  );
  await expect(page.getByTestId("count-unchanged").locator("[data-count]")).toHaveAttribute(
    "data-count",
    String(answer.unchanged),
  );
  if (errors !== undefined) {
    await expect(page.getByTestId("count-error").locator("[data-count]")).toHaveAttribute("data-count", String(errors));
  }
}

/** Clicks "Check the file" with the request held back until the page shows its progress. */
async function checkWithProgress(page: Page): Promise<void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let passed: Promise<void> | undefined;
  await page.route(
    "**/api/v1/imports/deals?*",
    (route) => {
      passed = held.then(() => route.continue());
      return passed;
    },
    { times: 1 },
  );
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByTestId("import-progress")).toContainText(/Sending deals\.csv: \d+% of|Checking 1,000 rows…/);
  release();
  await passed;
  await expect(page.getByTestId("import-outcome")).toBeVisible({ timeout: waitOf(30_000) });
}

test("a 1,000-deal file: the dry run names the three bad rows as the API does; fixed, 1,000 created; again, 1,000 unchanged", async ({
  page,
  problems,
}) => {
  test.slow(); // a rep, a plan and several pages: more than the default timeout on a busy machine
  const reps: [SeededUser, SeededUser] = [await ownRep("Imogen Import"), await ownRep("Ivo Import")];
  const tag = Date.now().toString(36);
  const good = dealRows(tag, reps);
  const bad = good.map((cells) => [...cells]);
  // Spreadsheet rows 4, 500 and 1001 (the header is row 1): index = row − 2.
  bad[2]![2] = "12.345";
  bad[498]![6] = `nobody.${tag}@e2e.example.com`;
  bad[999]![7] = `${reps[0].email};${reps[1].email}`;
  bad[999]![8] = "60;30";
  const badCsv = csvOf(bad);

  const api = await importAsAdmin(badCsv, { dry_run: "true" });
  expect(api.errors.map((e) => [e.row, e.field])).toEqual([
    [4, "arr_amount"],
    [500, "owner_id"],
    [1001, "split_percents"],
  ]);

  await signIn(page, state().users.admin, "/imports");
  await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
  await chooseFile(page, "deals.csv", badCsv);
  await expect(page.getByTestId("chosen-file")).toHaveText("deals.csv: 1,000 rows, 9 columns");
  for (const field of HEADER) {
    await expect(page.getByRole("combobox", { name: `Import the column ${field} as` })).toHaveValue(field);
  }
  await checkWithProgress(page);

  await expectCounts(page, api, 3);
  await expect(page.getByRole("button", { name: "Import 1,000 rows" })).toBeDisabled();
  // The rows with errors first: exactly the API's, each its sentence naming the row and the column.
  const table = page.getByTestId("import-rows");
  await expect(table.locator("tbody tr")).toHaveCount(3);
  const shownRows = await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-row")));
  expect(shownRows).toEqual(["4", "500", "1001"]);
  await expect(table.getByTestId("row-problem")).toHaveText(
    api.errors.map((e) => `Row ${e.row}, ${e.field}: ${e.message}`),
  );
  await expect(table.getByTestId("row-problem").first()).toHaveText(/^Row 4, arr_amount: /);

  // Every row, 50 a page, as the API lists them.
  await page.locator("label", { hasText: /^All rows \(1,000\)$/ }).click();
  await expect(table.locator("tbody tr")).toHaveCount(50);
  const first = api.rows!.slice(0, 50);
  await expect(table.locator('[data-col="external-id"]')).toHaveText(first.map((r) => r.external_id ?? "—"));
  await page.getByRole("button", { name: "Page 20" }).click();
  await expect(table.locator('[data-col="row"]').last()).toHaveText("1001");
  await expect(table.locator("tbody tr").last()).toHaveAttribute("data-action", api.rows!.at(-1)!.action);

  // Fixed and chosen again: no errors, then the import, all 1,000 created.
  const goodCsv = csvOf(good);
  await chooseFile(page, "deals.csv", goodCsv);
  await page.getByRole("button", { name: "Check the file" }).click();
  await expectCounts(page, { created: 1000, updated: 0, unchanged: 0 }, 0);
  await page.getByRole("button", { name: "Import 1,000 rows" }).click();
  const imported = page.locator('[data-outcome="imported"]');
  await expect(imported).toBeVisible({ timeout: waitOf(60_000) });
  await expectCounts(page, { created: 1000, updated: 0, unchanged: 0 });
  const listed = await asAdmin<{ meta: { total: number } }>(
    "GET",
    `/deals?q=${encodeURIComponent(`Import ${tag} #`)}&per_page=1`,
  );
  expect(listed.meta.total).toBe(1000);

  // The same file again: the API and the page both say 1,000 unchanged.
  const again = await importAsAdmin(goodCsv, { dry_run: "true" });
  expect([again.created, again.updated, again.unchanged, again.errors.length]).toEqual([0, 0, 1000, 0]);
  await chooseFile(page, "deals.csv", goodCsv);
  await page.getByRole("button", { name: "Check the file" }).click();
  await expectCounts(page, again, 0);
  await page.getByRole("button", { name: "Import 1,000 rows" }).click();
  await expect(imported).toBeVisible({ timeout: waitOf(60_000) });
  await expectCounts(page, { created: 0, updated: 0, unchanged: 1000 });
  const after = await asAdmin<{ meta: { total: number } }>(
    "GET",
    `/deals?q=${encodeURIComponent(`Import ${tag} #`)}&per_page=1`,
  );
  expect(after.meta.total).toBe(1000);
  expect(problems).toEqual([]);
});

test("an import refused after its check (a deal approved in between): its 422 shown by row, nothing written", async ({
  page,
  problems,
}) => {
  const rep = await ownRep("Lena Locked");
  await ownPlan("Locked import plan", [rep]);
  const tag = Date.now().toString(36);
  const file = (second: string) =>
    [
      "external_id,opportunity_name,arr_amount,close_date,owner_id",
      `LOCK-${tag}-1,Locked ${tag} one,1000.00,2025-04-01,${rep.email}`,
      `LOCK-${tag}-2,Locked ${tag} two,${second},2025-04-02,${rep.email}`,
    ].join("\n");
  const first = await importAsAdmin(file("2000.00"), {});
  expect([first.created, first.errors]).toEqual([2, []]);

  await signIn(page, state().users.admin, "/imports");
  const changed = file("2500.00");
  await chooseFile(page, "deals.csv", changed);
  await page.getByRole("button", { name: "Check the file" }).click();
  await expectCounts(page, { created: 0, updated: 1, unchanged: 1 }, 0);
  const [deal] = (await asAdmin<{ data: { id: string }[] }>("GET", `/deals?external_id=LOCK-${tag}-2`)).data;
  await asAdmin("POST", `/deals/${deal!.id}/approve`);

  // The API's own answer to the same file now: 422, the row named.
  const { url, adminKey } = state();
  const refused = await fetch(`${url}/api/v1/imports/deals`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "text/csv" },
    body: changed,
  });
  expect(refused.status).toBe(422);
  const details = (
    (await refused.json()) as { error: { details: { row: number; field: string | null; message: string }[] } }
  ).error.details;
  expect(details.map((d) => d.row)).toEqual([3]);

  await page.getByRole("button", { name: "Import 2 rows" }).click();
  await expect(page.locator('[data-outcome="refused"]')).toBeVisible();
  await expect(page.getByRole("heading", { name: "Nothing was imported" })).toBeVisible();
  await expect(page.getByTestId("import-rows").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("row-problem")).toHaveText(
    details.map((d) => (d.field ? `Row ${d.row}, ${d.field}: ${d.message}` : `Row ${d.row}: ${d.message}`)),
  );
  const after = await asAdmin<{ arr_amount: number; status: string }>("GET", `/deals/${deal!.id}`);
  expect([after.arr_amount, after.status]).toEqual([2000, "approved"]);
  expect(problems).toEqual([]);
});

test("a renamed column mapped by hand is sent as ?map= and remembered after a reload", async ({ page, problems }) => {
  const [rep] = [await ownRep("Mara Mapping")];
  const tag = Date.now().toString(36);
  const csv = [
    "Deal Ref,opportunity_name,Amount,close_date,owner_id,Notes",
    `MAP-${tag}-1,Mapped ${tag} one,1200.00,2025-03-01,${rep.email},first`,
    `MAP-${tag}-2,Mapped ${tag} two,800.50,2025-03-02,${rep.email},second`,
  ].join("\n");
  await signIn(page, state().users.admin, "/imports");
  await chooseFile(page, "crm-export.csv", csv);
  const choice = (header: string) => page.getByRole("combobox", { name: `Import the column ${header} as` });
  // "Amount" is a known name for the ARR amount; "Deal Ref" and "Notes" are nothing the page knows.
  await expect(choice("Amount")).toHaveValue("arr_amount");
  await expect(choice("Deal Ref")).toHaveValue("-");
  await expect(choice("Notes")).toHaveValue("-");
  await expect(page.getByTestId("mapping-problems")).toContainText("External ID");
  await expect(page.getByRole("button", { name: "Check the file" })).toBeDisabled();

  await choice("Deal Ref").selectOption("external_id");
  await expect(page.getByTestId("mapping-problems")).toHaveCount(0);
  const sent = page.waitForRequest((request) => request.url().includes("/api/v1/imports/deals"));
  await page.getByRole("button", { name: "Check the file" }).click();
  const map = new URL((await sent).url()).searchParams.get("map");
  expect(map).toBe("Deal Ref:external_id,Amount:arr_amount,Notes:-");
  const api = await importAsAdmin(csv, { dry_run: "true", map: map! });
  expect([api.created, api.errors]).toEqual([2, []]);
  await expectCounts(page, api, 0);

  // Another visit, the same headers: the hand-made choice is back.
  await page.reload();
  await chooseFile(page, "crm-export.csv", csv);
  await expect(choice("Deal Ref")).toHaveValue("external_id");
  await expect(choice("Amount")).toHaveValue("arr_amount");
  await expect(page.getByRole("button", { name: "Check the file" })).toBeEnabled();
  expect(problems).toEqual([]);
});

test("each template downloads with every column and an example row that the API's dry run accepts", async ({
  page,
  problems,
}) => {
  await signIn(page, state().users.admin, "/imports");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download a template for deals" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("deals-import-template.csv");
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const [header, example, rest] = text.split("\r\n");
  expect(header).toBe(
    "external_id,opportunity_name,arr_amount,currency,deal_type,close_date,owner_id,contract_start,contract_end,split_user_ids,split_percents",
  );
  expect(example).toContain(state().users.admin.email);
  expect(rest).toBe("");
  const answer = await importAsAdmin(text, { dry_run: "true" });
  expect(answer.errors).toEqual([]);
  expect(answer.rows?.map((r) => r.action)).toEqual([answer.created === 1 ? "create" : "unchanged"]);

  await page.locator("label", { hasText: /^People$/ }).click();
  await expect(page).toHaveURL(/resource=users/);
  const people = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download a template for people" }).click();
  const peopleFile = await people;
  expect(peopleFile.suggestedFilename()).toBe("users-import-template.csv");
  const peopleText = await (await peopleFile.createReadStream())
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString("utf8"));
  expect(peopleText.split("\r\n")[0]).toBe(
    "external_id,name,email,role,manager_id,manager_effective_from,active,payroll_id",
  );
  // Checked on the page as a people file: what the API's dry run of the same text says.
  const { url, adminKey } = state();
  const peopleAnswer = (await (
    await fetch(`${url}/api/v1/imports/users?dry_run=true`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "text/csv" },
      body: peopleText,
    })
  ).json()) as ImportAnswer;
  expect(peopleAnswer.errors).toEqual([]);
  await chooseFile(page, "users-import-template.csv", peopleText);
  await page.getByRole("button", { name: "Check the file" }).click();
  await expectCounts(page, peopleAnswer, 0);
  await expect(page.getByRole("button", { name: "Import 1 row" })).toBeEnabled();
  expect(problems).toEqual([]);
});

test("the import page is for admins: not in finance's menu, and not allowed at its address", async ({
  page,
  problems,
}) => {
  await signIn(page, state().users.finance, "/imports");
  await expect(page.getByRole("link", { name: "Import", exact: true })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "You are not allowed to open this page" })).toBeVisible();
  expect(problems).toEqual([]);
});
