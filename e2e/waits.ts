/**
 * CI runs this suite beside both unit suites on 2 cores (.ci/run): a page that answers in a second on a
 * quiet machine has taken over ten there. Its waits are longer, never its assertions looser.
 */
export const WAIT_SCALE = process.env.CI ? 3 : 1;

/** A wait of `ms` on a quiet machine, as long as this run's machine needs. */
export const waitOf = (ms: number): number => ms * WAIT_SCALE;
