import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { countRows, csvLine, firstRecords, headerOf } from "../../web/src/pages/imports/csv-text.js";
import { fieldsOf, IMPORT_RESOURCES } from "../../web/src/pages/imports/fields.js";
import { type Choice, guessMapping, mappingProblems, mappingQuery, SKIP } from "../../web/src/pages/imports/mapping.js";
import { rememberedMapping, rememberMapping } from "../../web/src/pages/imports/remembered-mapping.js";
import { columnNamer, problemOfDetail, problemText, resultRows } from "../../web/src/pages/imports/result.js";
import { templateCsv } from "../../web/src/pages/imports/template.js";

// The import page (issue #30, API.md §19): what it reads of a file before sending it, how it guesses
// and remembers which field each column is, and how it words the answer.

/**
 * The file as the server reads it (src/imports/csv.ts: csv-parse with these options, cells trimmed,
 * the first record the header whatever it holds, later records with no cell left dropped).
 */
function oracle(text: string): string[][] {
  const records = (
    parse(text, { bom: true, trim: true, relax_column_count: true, skip_empty_lines: false }) as string[][]
  ).map((record) => record.map((cell) => cell.trim()));
  const [header, ...rows] = records;
  return header ? [header, ...rows.filter((row) => row.some((cell) => cell !== ""))] : [];
}

/** Cells with what makes CSV hard: commas, quotes, line breaks, spaces, non-ASCII, nothing at all. */
const cell = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("a,b", 'say "hi"', "two\nlines", "cr\r\nlf", " padded ", "", " ", "\u3000", "ü日本", '"', ",", "\n"),
);
const record = fc.array(cell, { minLength: 1, maxLength: 6 });
// The header names something (a header with no names is the unit case above).
const header = record.filter((cells) => cells.some((c) => c.trim() !== ""));

const csvFile = fc
  .record({
    records: fc.tuple(header, fc.array(record, { maxLength: 12 })).map(([first, rest]) => [first, ...rest]),
    eol: fc.constantFrom("\n", "\r\n"),
    bom: fc.boolean(),
    trailing: fc.boolean(),
    blankLines: fc.boolean(),
  })
  .map(({ records, eol, bom, trailing, blankLines }) => {
    const lines = records.map(csvLine);
    const body = lines.join(blankLines ? `${eol}${eol}` : eol);
    return { records, text: `${bom ? "\uFEFF" : ""}${body}${trailing ? eol : ""}` };
  });

describe("csv-text: the header, the first row and the row count, as csv-parse reads them", () => {
  it("reads quoted commas, doubled quotes and line breaks inside a header cell", () => {
    const text = '\uFEFFexternal_id,"Amount, USD","Say ""hi""","two\r\nlines"\r\nSF-1,10,x,y\r\n';
    expect(headerOf(text)).toEqual(["external_id", "Amount, USD", 'Say "hi"', "two\r\nlines"]);
    expect(firstRecords(text, 2)[1]).toEqual(["SF-1", "10", "x", "y"]);
    expect(countRows(text)).toBe(1);
  });

  it("trims cells, skips rows with no cell left, counts a last row without a line break", () => {
    expect(headerOf("  external_id ,  name\n")).toEqual(["external_id", "name"]);
    expect(countRows('a,b\n\n1,2\n , \n,""\n3,4')).toBe(2);
    expect(firstRecords("a,b\n,\n \n1,2", 2)).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    // A blank first line is the header, as the server reads it: a file with no names.
    expect(headerOf("\na,b\n")).toEqual([""]);
    expect(countRows("a,b\r\n")).toBe(0);
    expect(countRows("")).toBe(0);
    expect(headerOf("")).toEqual([]);
  });

  it("agrees with csv-parse on any file: the first two records and how many follow the header", () => {
    fc.assert(
      fc.property(csvFile, ({ records, text }) => {
        const expected = oracle(text);
        const [header, ...rows] = records.map((r) => r.map((c) => c.trim()));
        expect(expected).toEqual([header, ...rows.filter((r) => r.some((c) => c !== ""))]);
        expect(firstRecords(text, 2)).toEqual(expected.slice(0, 2));
        expect(headerOf(text)).toEqual(expected[0]);
        expect(countRows(text)).toBe(expected.length - 1);
      }),
      { numRuns: 500 },
    );
  });
});

describe("mapping: which field each column is", () => {
  it.each<[string[], Choice[]]>([
    [
      ["External ID", "Opportunity", "Amount", "Currency", "Type", "Close Date", "Owner Email", "Notes"],
      ["external_id", "opportunity_name", "arr_amount", "currency", "deal_type", "close_date", "owner_id", SKIP],
    ],
    // An exact name wins over an alias, wherever it stands; the alias's column is skipped.
    [
      ["Amount", "arr_amount", "external_id"],
      [SKIP, "arr_amount", "external_id"],
    ],
    // One typo is close; two are not.
    [
      ["externl_id", "clsoe_dat"],
      ["external_id", SKIP],
    ],
    // Two columns close to one field: the earlier takes it.
    [
      ["Owner", "Rep"],
      ["owner_id", SKIP],
    ],
  ])("deals %j → %j", (headers, choices) => {
    expect(guessMapping("deals", headers)).toEqual(choices);
  });

  it("people's columns", () => {
    expect(
      guessMapping("users", ["Employee ID", "Full Name", "Work Email", "Reports To", "Is Active", "Payroll"]),
    ).toEqual(["external_id", "name", "email", "manager_id", "active", "payroll_id"]);
  });

  it("a file named as the fields maps each to itself and sends no ?map=", () => {
    for (const resource of IMPORT_RESOURCES) {
      fc.assert(
        fc.property(fc.shuffledSubarray(fieldsOf(resource), { minLength: 1 }), (headers) => {
          const choices = guessMapping(resource, headers);
          expect(choices).toEqual(headers);
          expect(mappingQuery(headers, choices)).toBeUndefined();
        }),
      );
    }
  });

  it("never gives one field to two columns, whatever the headers and what was remembered", () => {
    const names = fc.constantFrom(
      ...fieldsOf("deals"),
      "Amount",
      "ARR",
      "Owner",
      "Owner Email",
      "Close Date",
      "CLOSE_DATE",
      "Type",
      "Notes",
      "",
      "id",
    );
    const remembered = fc.dictionary(names, fc.constantFrom<unknown>(...fieldsOf("deals"), SKIP, "bogus", 3));
    fc.assert(
      fc.property(fc.array(names, { maxLength: 14 }), remembered, (headers, before) => {
        const choices = guessMapping("deals", headers, before);
        const fields = choices.filter((c) => c !== SKIP);
        expect(new Set(fields).size).toBe(fields.length);
        expect(choices).toHaveLength(headers.length);
        for (const c of choices) expect([SKIP, ...fieldsOf("deals")]).toContain(c);
      }),
      { numRuns: 500 },
    );
  });

  it("a remembered choice wins; one that is not a field of the resource is ignored", () => {
    expect(guessMapping("deals", ["Amount", "Deal Ref"], { "Deal Ref": "external_id", Amount: SKIP })).toEqual([
      SKIP,
      "external_id",
    ]);
    expect(guessMapping("deals", ["Amount"], { Amount: "email" })).toEqual(["arr_amount"]);
  });

  it("?map= names only the columns not named as their field, skips as csv_col:-, each header once", () => {
    const headers = ["Deal Ref", "arr_amount", "Notes", "Owner Email", "Notes", "Amount: USD"];
    const choices: Choice[] = ["external_id", "arr_amount", SKIP, "owner_id", SKIP, "arr_amount"];
    expect(mappingQuery(headers, choices)).toBe(
      "Deal Ref:external_id,Notes:-,Owner Email:owner_id,Amount: USD:arr_amount",
    );
  });

  it("says what keeps a mapping from being sent", () => {
    expect(mappingProblems("deals", ["external_id", "amount"], ["external_id", "arr_amount"])).toEqual([]);
    expect(mappingProblems("deals", ["Owner", "Rep", "Amount"], ["owner_id", "owner_id", "arr_amount"])).toEqual([
      'Owner is chosen for 2 columns ("Owner" and "Rep"): keep it for one and skip the others.',
      "Choose the column that holds each deal's External ID: deals are matched by it.",
    ]);
    expect(mappingProblems("users", ["name"], ["name"])).toEqual([
      "Choose the column that holds each person's External ID or Email: people are matched by them.",
    ]);
    expect(mappingProblems("users", ["email"], ["email"])).toEqual([]);
    expect(
      mappingProblems(
        "deals",
        ["external_id", "", "a,b", "x", "x", "y", "y", "Amount: USD"],
        ["external_id", SKIP, SKIP, SKIP, "owner_id", SKIP, SKIP, "arr_amount"],
      ),
    ).toEqual([
      "Column 2 has no name in the header row: give it one in the file, or remove the column.",
      'Rename the column "a,b" in the file without a comma, so it can be matched.',
      'Columns 4 and 5 are both named "x": skip them, or rename them in the file so each is different.',
    ]);
  });
});

describe("remembered mapping: per resource, in this browser", () => {
  const store = new Map<string, string>();
  afterEach(() => {
    store.clear();
    vi.unstubAllGlobals();
  });
  const stubStorage = () =>
    vi.stubGlobal("localStorage", {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    });

  it("a column mapped by hand is mapped so again when the same headers come back; only hand choices are kept", () => {
    stubStorage();
    const headers = ["Deal Ref", "Amount", "close_date"];
    const guessed = guessMapping("deals", headers, rememberedMapping("deals"));
    expect(guessed).toEqual([SKIP, "arr_amount", "close_date"]);
    const chosen: Choice[] = ["external_id", "arr_amount", "close_date"];
    rememberMapping("deals", headers, chosen);
    expect(JSON.parse(store.get("cts:import-mapping:deals")!)).toEqual({ "Deal Ref": "external_id" });
    expect(guessMapping("deals", headers, rememberedMapping("deals"))).toEqual(chosen);
    // Another resource keeps its own.
    expect(rememberedMapping("users")).toEqual({});
    // Set back to the guess: forgotten.
    rememberMapping("deals", headers, guessed);
    expect(rememberedMapping("deals")).toEqual({});
  });

  it("storage refused or holding garbage: nothing remembered, nothing thrown", () => {
    vi.stubGlobal("localStorage", {
      getItem: () => "not json",
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    });
    expect(rememberedMapping("deals")).toEqual({});
    expect(() => rememberMapping("deals", ["a"], ["external_id"])).not.toThrow();
  });
});

describe("template: every field, one example row", () => {
  it.each(IMPORT_RESOURCES)("%s: parses back to the fields in API.md §19's order, and a row with each", (resource) => {
    const text = templateCsv(resource, { email: "ana@example.com", today: "2028-02-29" });
    const [header, example, ...rest] = oracle(text);
    expect(header).toEqual(fieldsOf(resource));
    expect(rest).toEqual([]);
    expect(example).toHaveLength(header!.length);
    const row = Object.fromEntries(header!.map((field, i) => [field, example![i]]));
    if (resource === "deals") {
      expect(row).toMatchObject({ owner_id: "ana@example.com", close_date: "2028-02-29", contract_end: "2029-02-28" });
      expect(row.split_user_ids!.split(";")).toHaveLength(row.split_percents!.split(";").length);
    } else {
      expect(row).toMatchObject({ manager_id: "ana@example.com", role: "rep", active: "true" });
    }
  });
});

describe("result: the answer in words", () => {
  const columnOf = columnNamer("deals", ["Deal Ref", "arr_amount", "Notes"], ["external_id", "arr_amount", SKIP]);

  it("names the row as the spreadsheet does and the column as the file does", () => {
    expect(
      problemText({ row: 4, column: columnOf("arr_amount"), message: "must have at most 2 decimal places for USD" }),
    ).toBe("Row 4, arr_amount: must have at most 2 decimal places for USD");
    expect(problemText({ row: 7, column: columnOf("external_id"), message: "appears twice" })).toBe(
      "Row 7, Deal Ref: appears twice",
    );
    // A field the file has no column for: its name in words.
    expect(problemText({ row: 2, column: columnOf("owner_id"), message: "is required" })).toBe(
      "Row 2, Owner: is required",
    );
    expect(problemText({ row: 3, column: columnOf(null), message: "locked" })).toBe("Row 3: locked");
    expect(problemText({ row: null, column: null, message: "and 12 more errors" })).toBe("and 12 more errors");
  });

  it("reads a 422's details: rows[4].arr_amount, or row and field given", () => {
    expect(problemOfDetail({ param: "rows[4].arr_amount", message: "m" })).toEqual({
      row: 4,
      field: "arr_amount",
      message: "m",
    });
    expect(problemOfDetail({ param: "rows[9]", message: "m" })).toEqual({ row: 9, field: null, message: "m" });
    expect(problemOfDetail({ param: "x", row: 5, field: "currency", message: "m" })).toEqual({
      row: 5,
      field: "currency",
      message: "m",
    });
    expect(problemOfDetail({ param: "rows", message: "and 3 more" })).toEqual({
      row: null,
      field: null,
      message: "and 3 more",
    });
  });

  it("a row per row of the dry run, its errors with it", () => {
    const rows = resultRows(
      {
        errors: [
          { row: 3, field: "arr_amount", message: "a" },
          { row: 3, field: "split_percents", message: "b" },
          { row: null, field: null, message: "whole file" },
        ],
        rows: [
          { row: 2, external_id: "SF-1", action: "create" },
          { row: 3, external_id: "SF-2", action: "error" },
        ],
      },
      columnOf,
    );
    expect(rows).toEqual([
      { row: 2, externalId: "SF-1", action: "create", problems: [] },
      {
        row: 3,
        externalId: "SF-2",
        action: "error",
        problems: [
          { row: 3, column: "arr_amount", message: "a" },
          { row: 3, column: "Split percents", message: "b" },
        ],
      },
    ]);
    // A refused import has no rows: a row per row its errors name, in order.
    expect(
      resultRows(
        {
          errors: [
            { row: 9, field: null, message: "x" },
            { row: 4, field: null, message: "y" },
          ],
        },
        columnOf,
      ).map((r) => r.row),
    ).toEqual([4, 9]);
  });
});
