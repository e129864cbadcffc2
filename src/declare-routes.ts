import type { FastifyContextConfig, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { z } from "zod";
import { type Ctx, type Role, rolesOfScope, type Scope } from "./context.js";
import { type BodyInPieces, validatorInPieces } from "./http/body-in-pieces.js";
import { IdParams } from "./http/input-fields.js";
import { pageReply } from "./http/list-reply.js";
import { listOf, NEWEST_FIRST, type Page, type RenderedPage } from "./http/pagination.js";
import type { App } from "./http/types.js";

type Part = z.ZodType | undefined;
type Parsed<S extends Part> = S extends z.ZodType ? z.output<S> : undefined;

/** What a route's handler receives: the caller's context and the request parts its schemas parsed. */
export interface RouteInput<P extends Part, Q extends Part, B extends Part> {
  ctx: Ctx;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

/** What differs from route to route; the tags are the declarer's. */
interface RouteDoc<P extends Part, Q extends Part, B extends Part> {
  path: string;
  scope: Scope;
  /** The roles that may call it when they are not those of the scope (access/ `MAY`). */
  roles?: readonly Role[];
  /** The response shows a secret once: an Idempotency-Key replay never stores or repeats it. */
  secretResponse?: true;
  /** The body's media types when not JSON (the CSV imports: `text/csv`, whose parser the app registers). */
  consumes?: string[];
  /** The body's long array validated an item at a time (`body` stays the documented schema). */
  bodyInPieces?: BodyInPieces;
  /** PATCH: the record's GET representation (its reader by id and schema), checked against If-Match. */
  ifMatch?: { read: (ctx: Ctx, id: string) => Promise<unknown>; schema: z.ZodType };
  /** A write answering a record: the record's GET by id, for the response's ETag and a 201's Location. */
  represents?: RecordRef;
  summary: string;
  operationId?: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
}

/** A record's GET by id, as its declarer writes the path (`/disputes/:id`), and the schema that GET answers with. */
export interface RecordRef {
  path: string;
  schema: z.ZodType;
}

type Run<P extends Part, Q extends Part, B extends Part, T> = (input: RouteInput<P, Q, B>) => Promise<T>;

/**
 * What a write answers when it may have left a recalculation to the background: the body, and the job's id
 * for the `Recalculation-Job-Id` header (a record with no `recalculation_job_id` field of its own: a user
 * whose reporting line moved, API.md §16).
 */
export class Recalculating<T> {
  constructor(
    readonly body: T,
    readonly jobId: string | null,
  ) {}
}

type Answer<T> = T | Recalculating<T>;

type Reader = (ctx: Ctx, id: string) => Promise<unknown>;

interface RecordReader {
  read: Reader;
  /** The roles that may read it; `byId`: a GET by id (an If-Match reader stands in only until one is declared). */
  roles: readonly Role[];
  byId: boolean;
}

/** Per app: each collection's reader by id (`/deals/:id` → getDeal) and the roles that may call it. */
const readersOf = new WeakMap<App, Map<string, RecordReader>>();

function addReader(app: App, path: string, reader: RecordReader): void {
  const readers = readersOf.get(app) ?? new Map<string, RecordReader>();
  readersOf.set(app, readers);
  if (reader.byId || !readers.get(path)?.byId) readers.set(path, reader);
}

/**
 * The record a route under `/<collection>/:id` acts on, read as the caller before a role refusal (a
 * record they do not see → 404): the collection's GET by id (or, without one, a PATCH's If-Match
 * reader), when the caller's role may read it. Looked up at request time: declaration order does not matter.
 */
function visibleRecordOf(app: App, path: string): FastifyContextConfig["visibleRecord"] {
  const collection = /^\/[^/:]+\/:id(?=\/|$)/.exec(path)?.[0];
  if (!collection) return undefined;
  return async (ctx, params) => {
    const reader = readersOf.get(app)?.get(collection);
    const role = ctx.actor.type === "user" ? ctx.actor.role : undefined;
    if (reader && role && reader.roles.includes(role)) await reader.read(ctx, params.id!);
  };
}

function configOf(app: App, doc: RouteDoc<Part, Part, Part>): FastifyContextConfig {
  const { scope, secretResponse, ifMatch, represents } = doc;
  const visibleRecord = visibleRecordOf(app, doc.path);
  return {
    scope,
    roles: doc.roles ?? rolesOfScope(scope),
    ...(visibleRecord && { visibleRecord }),
    ...(secretResponse && { secretResponse }),
    ...(represents && { represents: { path: `${app.prefix}${represents.path}`, schema: represents.schema } }),
    ...(ifMatch && {
      ifMatch: { read: (ctx: Ctx, p: Record<string, string>) => ifMatch.read(ctx, p.id!), schema: ifMatch.schema },
    }),
  };
}

/**
 * One collection of records, stated once: its path (`/spiffs`; a record at `/spiffs/:id`), its scope (one, or
 * one to read and one to write) and its record's GET representation, the reader by id and schema that the GET
 * by id answers with, a PATCH's If-Match is checked against, and a create, update or list answers with unless
 * they name another.
 */
interface Collection<R extends z.ZodType> {
  path: string;
  scope: Scope | { read: Scope; write: Scope };
  record: R;
  read: (ctx: Ctx, id: string) => Promise<z.output<R>>;
}

/** What a route of a collection still states: the collection gives its path and scope. */
type CollectionDoc<P extends Part, Q extends Part, B extends Part> = Omit<RouteDoc<P, Q, B>, "path" | "scope">;

/**
 * Declares a feature's routes so each says only what differs: path, access, documentation, schemas and
 * one service call. The route config and schema keys are the ones the pipeline, Fastify and the OpenAPI
 * document read (scope, params, querystring, body, response by status), as a hand-written route has them.
 */
export function declareRoutes(app: App, tags: readonly string[]) {
  function add<P extends Part, Q extends Part, B extends Part>(
    method: HTTPMethods,
    doc: RouteDoc<P, Q, B>,
    response: Record<number, z.ZodType>,
    handle: (input: RouteInput<P, Q, B>, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): void {
    const { summary, operationId, description, params, query, body } = doc;
    const schema = {
      tags,
      summary,
      ...(operationId && { operationId }),
      ...(description && { description }),
      ...(params && { params }),
      ...(query && { querystring: query }),
      ...(body && { body }),
      ...(doc.consumes && { consumes: doc.consumes }),
      response,
    };
    // Fastify ran the validators of this schema before the handler: the parts have the parsed types.
    const inputOf = (req: FastifyRequest): RouteInput<P, Q, B> => ({
      ctx: req.ctx,
      params: req.params as Parsed<P>,
      query: req.query as Parsed<Q>,
      body: req.body as Parsed<B>,
    });
    app.route({
      method,
      url: doc.path,
      config: configOf(app, doc),
      schema,
      ...(doc.bodyInPieces && { validatorCompiler: validatorInPieces(doc.bodyInPieces) as never }),
      handler: (req, reply) => handle(inputOf(req), req, reply),
    });
  }

  /** A route answering `status` with the record `run` returns. */
  function answer(method: HTTPMethods, status: number) {
    return <P extends Part, Q extends Part, B extends Part, R extends z.ZodType>(
      doc: RouteDoc<P, Q, B> & { response: R },
      run: Run<P, Q, B, Answer<z.output<R>>>,
    ): void =>
      add(method, doc, { [status]: doc.response }, async (input, _req, reply) => {
        const out = await run(input);
        if (!(out instanceof Recalculating)) return reply.code(status).send(out);
        if (out.jobId) reply.header("Recalculation-Job-Id", out.jobId);
        return reply.code(status).send(out.body);
      });
  }

  /** POST answering 200 with `response`, or 202 with `accepted` (a Job) when `run` left the work to a job. */
  function postOrAccept<P extends Part, Q extends Part, B extends Part, R extends z.ZodType, A extends z.ZodType>(
    doc: RouteDoc<P, Q, B> & { response: R; accepted: A },
    run: Run<P, Q, B, { answer: z.output<R> } | { accepted: z.output<A> }>,
  ): void {
    add("POST", doc, { 200: doc.response, 202: doc.accepted }, async (input, _req, reply) => {
      const out = await run(input);
      return "accepted" in out ? reply.code(202).send(out.accepted) : reply.code(200).send(out.answer);
    });
  }

  /** 204; `run` returns the id of a recalculation it left to the background, if any, for the header. */
  function deleteOne<P extends Part, Q extends Part = undefined>(
    doc: RouteDoc<P, Q, undefined> & { response: z.ZodNull },
    run: Run<P, Q, undefined, string | null | undefined>,
  ): void {
    add("DELETE", doc, { 204: doc.response }, async (input, _req, reply) => {
      const jobId = await run(input);
      if (jobId) reply.header("Recalculation-Job-Id", jobId);
      return reply.code(204).send(null);
    });
  }

  const get = answer("GET", 200);
  const patch = answer("PATCH", 200);
  const routes = {
    get,
    post: answer("POST", 200),
    create: answer("POST", 201),
    accept: answer("POST", 202),
    postOrAccept,
    patch,
    put: answer("PUT", 200),

    /** GET of one record by the `:id` of its path. */
    getById<R extends z.ZodType>(
      doc: Omit<RouteDoc<typeof IdParams, undefined, undefined>, "params"> & { response: R },
      read: (ctx: Ctx, id: string) => Promise<z.output<R>>,
    ): void {
      addReader(app, doc.path, { read, roles: doc.roles ?? rolesOfScope(doc.scope), byId: true });
      get({ ...doc, params: IdParams }, ({ ctx, params }) => read(ctx, params.id));
    },

    /** PATCH of one record by the `:id` of its path. */
    patchById<B extends z.ZodType, R extends z.ZodType>(
      doc: Omit<RouteDoc<typeof IdParams, undefined, B>, "params"> & { response: R },
      update: (ctx: Ctx, id: string, body: z.output<B>) => Promise<Answer<z.output<R>>>,
    ): void {
      // Its If-Match reader is the record's GET representation: it reads as the caller, with their visibility.
      if (doc.ifMatch) addReader(app, doc.path, { read: doc.ifMatch.read, roles: rolesOfScope("read"), byId: false });
      const represents = doc.represents ?? (doc.ifMatch && { path: doc.path, schema: doc.ifMatch.schema });
      patch({ ...doc, params: IdParams, ...(represents && { represents }) }, ({ ctx, params, body }) =>
        update(ctx, params.id, body as z.output<B>),
      );
    },

    /** DELETE of one record by the `:id` of its path: 204, and the header of a recalculation left to run. */
    deleteById(
      doc: Omit<RouteDoc<typeof IdParams, undefined, undefined>, "params"> & { response: z.ZodNull },
      remove: (ctx: Ctx, id: string) => Promise<string | null | undefined>,
    ): void {
      deleteOne({ ...doc, params: IdParams }, ({ ctx, params }) => remove(ctx, params.id));
    },

    /**
     * A page of `item`s with the pagination `Link` header; without a description of its own, newest first.
     * `run` may return the page already rendered as the serializer of `item` would write it.
     */
    list<P extends Part, Q extends Part, I extends z.ZodType>(
      doc: RouteDoc<P, Q, undefined> & { item: I },
      run: Run<P, Q, undefined, Page<z.output<I>> | RenderedPage>,
    ): void {
      const described = { description: NEWEST_FIRST, ...doc };
      add("GET", described, { 200: listOf(doc.item) }, async (input, req, reply) =>
        pageReply(req, reply, await run(input)),
      );
    },

    delete: deleteOne,
  };

  /** The routes of one collection: each states its text, body and service call; the collection the rest. */
  function records<R extends z.ZodType>(collection: Collection<R>) {
    const { path, record, read } = collection;
    const byId = `${path}/:id`;
    const scopes =
      typeof collection.scope === "string" ? { read: collection.scope, write: collection.scope } : collection.scope;
    const ref: RecordRef = { path: byId, schema: record };
    return {
      /** The record's GET by id: what a write answering one of the collection's records names. */
      ref,

      /** GET of a page of the collection; its items are the records unless `item` says otherwise. */
      list<Q extends Part, I extends z.ZodType = R>(
        doc: CollectionDoc<undefined, Q, undefined> & { item?: I },
        run: Run<undefined, Q, undefined, Page<z.output<I>> | RenderedPage>,
      ): void {
        routes.list({ path, scope: scopes.read, item: record as z.ZodType as I, ...doc }, run);
      },

      /** GET of one record by its id, answered by the collection's reader. */
      get(doc: CollectionDoc<undefined, undefined, undefined>): void {
        routes.getById({ path: byId, scope: scopes.read, response: record, ...doc }, read);
      },

      /** POST of a new record: 201 with the record unless `response` says otherwise. */
      create<B extends Part, W extends z.ZodType = R>(
        doc: CollectionDoc<undefined, undefined, B> & { response?: W },
        run: Run<undefined, undefined, B, Answer<z.output<W>>>,
      ): void {
        routes.create({ path, scope: scopes.write, response: record as z.ZodType as W, represents: ref, ...doc }, run);
      },

      /** PATCH of one record, checked against its GET representation when If-Match is sent. */
      update<B extends z.ZodType, W extends z.ZodType = R>(
        doc: Omit<CollectionDoc<undefined, undefined, B>, "ifMatch"> & { response?: W },
        update: (ctx: Ctx, id: string, body: z.output<B>) => Promise<Answer<z.output<W>>>,
      ): void {
        const response = record as z.ZodType as W;
        routes.patchById(
          { path: byId, scope: scopes.write, ifMatch: { read, schema: record }, response, ...doc },
          update,
        );
      },

      /** DELETE of one record: 204, and the header of a recalculation left to run. */
      remove(
        doc: CollectionDoc<undefined, undefined, undefined> & { response: z.ZodNull },
        remove: (ctx: Ctx, id: string) => Promise<string | null | undefined>,
      ): void {
        routes.deleteById({ path: byId, scope: scopes.write, ...doc }, remove);
      },
    };
  }

  return { ...routes, records };
}
