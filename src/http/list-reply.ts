import type { FastifyReply, FastifyRequest } from "fastify";
import { isRenderedPage, linkHeader, type Page, type RenderedPage } from "./pagination.js";

// What Fastify sends with a body it serialized to JSON itself.
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Sets the pagination `Link` header and returns the page as the body. A rendered page is sent as
 * `{"data":…,"meta":…}` text, the bytes the route's serializer would write: a string body with a JSON
 * type skips the serializer (the onSend hooks, ETag among them, still run).
 */
export function pageReply<T>(req: FastifyRequest, reply: FastifyReply, page: Page<T> | RenderedPage) {
  const link = linkHeader(req.publicOrigin, req.url, page.meta);
  if (link) reply.header("Link", link);
  if (!isRenderedPage(page)) return page;
  const { page: number, per_page, total } = page.meta;
  const meta = JSON.stringify({ page: number, per_page, total });
  return reply.type(JSON_TYPE).send(`{"data":${page.dataText},"meta":${meta}}`);
}
