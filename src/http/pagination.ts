import { z } from "zod";
import { queryInt } from "./input-fields.js";

/** `page` and `per_page` of every list endpoint (API.md §2 "Pagination"). */
export const PageQuery = z.object({
  page: queryInt(z.number().min(1, "must be at least 1")).default(1).describe("Page number, from 1."),
  per_page: queryInt(z.number().min(1, "must be at least 1").max(100, "must be at most 100"))
    .default(25)
    .describe("Records per page, 1-100 (default 25)."),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** The order of every list that has no `sort`. */
export const NEWEST_FIRST = "Newest first (created_at desc, id desc).";

export const PageMeta = z.object({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1).max(100),
  total: z.number().int().min(0).describe("Matching records on every page."),
});

/** The list envelope `{data, meta}` around a record schema. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: PageMeta });
}

export interface Page<T> {
  data: T[];
  meta: { page: number; per_page: number; total: number };
}

/**
 * A page whose `data` is already JSON text: the exact bytes the zod serializer of the route's item
 * schema writes for those items (a test per route proves it), sent without parsing and re-serializing.
 */
export interface RenderedPage {
  dataText: string;
  meta: Page<unknown>["meta"];
}

export function isRenderedPage(page: Page<unknown> | RenderedPage): page is RenderedPage {
  return "dataText" in page;
}

export function offsetOf(q: PageQuery): { limit: number; offset: number } {
  return { limit: q.per_page, offset: (q.page - 1) * q.per_page };
}

/** RFC 8288 `Link` header with first/prev/next/last where they exist. */
export function linkHeader(origin: string, url: string, meta: Page<unknown>["meta"]): string | undefined {
  const base = new URL(url, origin);
  const last = Math.max(1, Math.ceil(meta.total / meta.per_page));
  // The URL is parsed once; each link only sets page and per_page on a copy of its query.
  const link = (page: number, rel: string) => {
    const params = new URLSearchParams(base.searchParams);
    params.set("page", String(page));
    params.set("per_page", String(meta.per_page));
    return `<${origin}${base.pathname}?${params}>; rel="${rel}"`;
  };
  const parts = [link(1, "first")];
  if (meta.page > 1) parts.push(link(Math.min(meta.page - 1, last), "prev"));
  if (meta.page < last) parts.push(link(meta.page + 1, "next"));
  parts.push(link(last, "last"));
  return parts.join(", ");
}
