import type { FastifyReply, FastifyRequest } from "fastify";
import { linkHeader, type Page } from "./pagination.js";

/** Sets the pagination `Link` header and returns the page as the body. */
export function pageReply<T>(req: FastifyRequest, reply: FastifyReply, page: Page<T>): Page<T> {
  const link = linkHeader(req.publicOrigin, req.url, page.meta);
  if (link) reply.header("Link", link);
  return page;
}
