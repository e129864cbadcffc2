import { setTimeout as sleep } from "node:timers/promises";

/**
 * The least time a route's answer takes, measured from the request's arrival: a route whose work differs
 * by whether an account exists (a reset queued or nothing) answers no sooner, so its time does not tell.
 */
export interface AnswerFloor {
  ms: number;
  /** A monotonic clock in milliseconds. */
  now: () => number;
  /** Waits this many milliseconds (a timer: the process serves other requests meanwhile). */
  wait: (ms: number) => Promise<void>;
}

/** `POST /auth/password-reset`: 250 ms, far above its one locked read and few inserts on an idle server. */
export const RESET_ANSWER_FLOOR: AnswerFloor = {
  ms: 250,
  now: () => performance.now(),
  wait: (ms) => sleep(ms),
};

/** Waits out what is left of the floor since `startedAt` (the floor's clock); nothing once it has passed. */
export async function answerNoSoonerThan(floor: AnswerFloor, startedAt: number): Promise<void> {
  const rest = floor.ms - (floor.now() - startedAt);
  if (rest > 0) await floor.wait(rest);
}
