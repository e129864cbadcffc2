// The API's types as the console names them: only generated types cross the wire (api/schema.d.ts).
import type { components, operations, paths } from "./schema";

export type Schemas = components["schemas"];

/** The JSON body an operation takes. */
export type BodyOf<Op extends keyof operations> =
  NonNullable<operations[Op]["requestBody"]> extends { content: { "application/json": infer Body } } ? Body : never;

/** The query parameters an operation takes. */
export type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

/** The JSON body of an operation's 200 answer. */
export type AnswerOf<Op extends keyof operations> = operations[Op]["responses"] extends {
  200: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

type Method = "get" | "post" | "put" | "patch" | "delete";
type Operation<P extends keyof paths, M extends Method> = [NonNullable<paths[P][M]>] extends [never] ? never : P;

/** "GET /api/v1/deals/{id}": an operation the API serves, as data/ names it. */
export type Endpoint<M extends Method = Method> = {
  [P in keyof paths]: { [K in M]: Operation<P, K> extends never ? never : `${Uppercase<K>} ${P}` }[M];
}[keyof paths];

export type ReadEndpoint = Endpoint<"get">;
export type WriteEndpoint = Endpoint<"post" | "put" | "patch" | "delete">;
