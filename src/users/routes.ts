import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User } from "./schema.js";
import * as service from "./service.js";

const tags = ["Users"];

export function userRoutes(app: App): void {
  app.get(
    "/users",
    {
      config: { scope: "read" },
      schema: {
        tags,
        summary: "List users",
        description: "Newest first (created_at desc, id desc).",
        querystring: ListUsersQuery,
        response: { 200: listOf(User) },
      },
    },
    async (req, reply) => pageReply(req, reply, await service.listUsers(req.ctx, req.query)),
  );

  app.get(
    "/users/:id",
    { config: { scope: "read" }, schema: { tags, summary: "Get a user", params: IdParams, response: { 200: User } } },
    (req) => service.getUser(req.ctx, req.params.id),
  );

  app.post(
    "/users",
    {
      config: { scope: "write" },
      schema: {
        tags,
        summary: "Create a user",
        description: "`role` defaults to rep, `active` to true. Email and external_id are unique (409).",
        body: CreateUserBody,
        response: { 201: User },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createUser(req.ctx, req.body)),
  );

  app.patch(
    "/users/:id",
    {
      config: { scope: "write", ifMatch: { read: (ctx, p) => service.getUser(ctx, p.id!), schema: User } },
      schema: {
        tags,
        summary: "Update a user",
        description:
          "Merges: omitted fields stay, null clears a nullable field. Deactivate with active: false (there is no DELETE).",
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: User },
      },
    },
    (req) => service.updateUser(req.ctx, req.params.id, req.body),
  );
}
