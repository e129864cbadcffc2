import type { Tx } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { ApiKey } from "./schema.js";

export async function lockExisting(tx: Tx, id: string): Promise<ApiKey> {
  const key = await repo.lockKey(tx, id);
  if (!key) throw notFound("API key", id);
  return key;
}
