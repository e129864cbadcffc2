import type { Ctx } from "../../context.js";
import { inTurnFor } from "./turns.js";

/*
 * Group commit. Creates for one rep serialize on the rep (their turn, then the row lock), and each one
 * recomputes the rep's bucket: a deal closing early in the period moves every later deal's prior
 * attainment, so a burst of forty creates rewrote the bucket forty times. Calls that arrive while the
 * rep's turn is taken wait together instead, and when their turn comes they run as one: one
 * transaction, one recalculation, each caller answered with its own result. The group is all or
 * nothing, so when it fails its members run again one at a time, still in their turn, and each gets
 * its own answer (one refused create never refuses the others it waited with).
 */

export interface GroupMember<I> {
  ctx: Ctx;
  input: I;
}

export interface GroupedWork<I, O> {
  /** What the callers of this kind share a group by (the kind of call); the people are added to it. */
  kind: string;
  /** One call alone, in its own transaction. */
  one: (ctx: Ctx, input: I) => Promise<O>;
  /** Several calls in one transaction, all or nothing: their results in the members' order. */
  many: (members: GroupMember<I>[]) => Promise<O[]>;
}

/** A group holds at most this many calls: its transaction (and its rows' locks) stays short. */
const MOST_IN_GROUP = 100;

interface Waiting<I, O> extends GroupMember<I> {
  resolve: (result: O) => void;
  reject: (error: unknown) => void;
}

/** The group still forming for each kind and set of people: joined until its turn starts. */
const forming = new Map<string, Waiting<unknown, unknown>[]>();

/**
 * Runs `input` through `work` in a turn for `userIds` (inTurnFor), together with every other call of
 * the same kind for the same people that arrives while an earlier turn of theirs runs. Inside a
 * transaction, or in a request's own transaction (an Idempotency-Key), it runs alone at once.
 */
export function inGroupedTurnFor<I, O>(
  ctx: Ctx,
  userIds: readonly string[],
  input: I,
  work: GroupedWork<I, O>,
): Promise<O> {
  if (ctx.db.isTransaction || ctx.requestTransaction || userIds.length === 0) {
    return inTurnFor(ctx, userIds, () => work.one(ctx, input));
  }
  const key = `${work.kind}\u0000${[...new Set(userIds)].sort().join("\u0000")}`;
  return new Promise<O>((resolve, reject) => {
    const member = { ctx, input, resolve, reject } as Waiting<unknown, unknown>;
    const open = forming.get(key);
    if (open && open.length < MOST_IN_GROUP) {
      open.push(member);
      return;
    }
    const group = [member];
    forming.set(key, group);
    void inTurnFor(ctx, userIds, async () => {
      if (forming.get(key) === group) forming.delete(key);
      await runGroup(group as Waiting<I, O>[], work);
    });
  });
}

async function runGroup<I, O>(group: Waiting<I, O>[], work: GroupedWork<I, O>): Promise<void> {
  if (group.length > 1) {
    let results: O[] | undefined;
    try {
      results = await work.many(group);
    } catch {
      // Someone's refusal, or a conflict: each member runs alone below and gets its own answer.
    }
    if (results) {
      for (const [i, member] of group.entries()) member.resolve(results[i] as O);
      return;
    }
  }
  for (const member of group) {
    try {
      member.resolve(await work.one(member.ctx, member.input));
    } catch (error) {
      member.reject(error);
    }
  }
}
