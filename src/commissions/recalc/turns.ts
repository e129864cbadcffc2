import type { Ctx } from "../../context.js";

/*
 * Changes to one person's deals serialize on that person's row lock (lockForRecalc), taken inside the
 * change's transaction, so each waiter holds a pool connection while it waits: forty clients creating
 * deals for one rep at once held every connection, and everyone else's requests timed out waiting for
 * one. Here such changes first wait their turn in this process, holding nothing; the row lock still
 * orders them across processes. A turn is taken for all its people at once (in call order), so two
 * turns never wait on each other in a cycle.
 */

const tails = new Map<string, Promise<void>>();

/**
 * Runs `fn` once every earlier turn of this process naming any of `userIds` has ended. Inside a
 * transaction (which may already hold row locks a turn-holder waits for) it runs at once.
 */
export async function inTurnFor<T>(ctx: Ctx, userIds: readonly string[], fn: () => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction || userIds.length === 0) return fn();
  const people = [...new Set(userIds)];
  let end!: () => void;
  const mine = new Promise<void>((resolve) => {
    end = resolve;
  });
  const earlier = people.flatMap((id) => tails.get(id) ?? []);
  for (const id of people) tails.set(id, mine);
  try {
    await Promise.all(earlier);
    return await fn();
  } finally {
    end();
    for (const id of people) if (tails.get(id) === mine) tails.delete(id);
  }
}
