import type { ColumnType } from "kysely";

/** Column types as the drivers return them (numeric and bigint as strings, dates as strings). */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type Json<T = unknown> = ColumnType<T, string, string>;
/** Money, rates and percents are numeric → exact strings. */
export type Decimal = ColumnType<string, string | number, string | number>;
export type DateOnly = ColumnType<string, string, string>;

/** The union of an enum column's values (db/enums.ts). */
export type OneOf<Values extends readonly string[]> = Values[number];

/** The PostgreSQL types of the columns written through JSON rows (`jsonb_to_recordset`). */
export type PgType = "text" | "numeric" | "date" | "timestamptz" | "boolean" | "smallint" | "integer" | "jsonb";

/** Every column of a table with its PostgreSQL type: checked against the table's row type. */
export type PgColumns<Table> = { readonly [Column in keyof Table]-?: PgType };
