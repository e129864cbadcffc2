import { type CsvLine, csvText } from "../../commissions/index.js";
import { ref } from "../openapi-schemas.js";
import { MORE_REQUESTS, REQUESTS } from "./requests.js";
import { BY_OPERATION, BY_SCHEMA, EVENTS, PAGE_ITEMS } from "./responses.js";
import { adjustmentLine, planLine, spiffLine } from "./world.js";

/**
 * An example on every operation: each request body and each success body (JSON or CSV) references one
 * of `components.examples`, which hold each value once: a schema's own (responses.ts), an operation's
 * where the schema's would mislead, a request's (requests.ts), a page of a schema's items. A request body
 * that takes two shapes (a standard and an override plan) references one example more per shape.
 */

type Json = Record<string, unknown>;
type Media = { schema?: Json & { $ref?: string }; examples?: Json };
type Operation = Json & {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};

const nameOf = (schema: Json | undefined) => (schema?.$ref as string | undefined)?.split("/").pop();
/** The name of the items' schema when `schema` is a page (`{data: [...], meta}`). */
const pageItemsOf = (schema: Json | undefined) =>
  nameOf(((schema?.properties as Json | undefined)?.data as Json | undefined)?.items as Json | undefined);

/** The CSV of the statement's lines, written by the export's own writer. */
const CSV = csvText([planLine, spiffLine, adjustmentLine] as unknown as CsvLine[]);

export function attachExamples(doc: { paths?: Record<string, Record<string, Operation>>; webhooks?: Json }): Json {
  const examples: Record<string, { summary?: string; value: unknown }> = {};
  /** `media.examples` names the example `name` (added to the components once). */
  const use = (media: Media, name: string, value: unknown) => {
    if (value === undefined) return;
    examples[name] ??= { value };
    media.examples = { [name]: ref("examples", name) };
  };
  const responseExample = (operation: Operation, type: string, media: Media): [string, unknown] => {
    const id = operation.operationId ?? "";
    if (type === "text/csv") return ["Csv", CSV];
    if (id in BY_OPERATION) return [id, BY_OPERATION[id]];
    const name = nameOf(media.schema);
    if (name) return [name, BY_SCHEMA[name] ?? EVENTS[name]];
    const items = pageItemsOf(media.schema);
    if (!items || !(items in BY_SCHEMA)) return ["", undefined];
    const data = PAGE_ITEMS[items] ?? [BY_SCHEMA[items]];
    return [`${items}Page`, { data, meta: { page: 1, per_page: 25, total: data.length } }];
  };
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const content = operation.requestBody?.content;
      const body = content?.["application/json"] ?? content?.["text/csv"];
      if (body && operation.operationId) {
        use(body, `${operation.operationId}Request`, REQUESTS[operation.operationId]);
        for (const [shape, { summary, value }] of Object.entries(MORE_REQUESTS[operation.operationId] ?? {})) {
          const name = `${operation.operationId}${shape}Request`;
          examples[name] ??= { summary, value };
          body.examples = { ...body.examples, [name]: ref("examples", name) };
        }
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          use(media, ...responseExample(operation, type, media));
        }
      }
    }
  }
  for (const item of Object.values(doc.webhooks ?? {}) as { post: Operation }[]) {
    const body = item.post.requestBody?.content?.["application/json"];
    const name = nameOf(body?.schema);
    if (body && name) use(body, name, EVENTS[name]);
  }
  return examples;
}
