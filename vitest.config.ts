import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/leak-guard.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each worker process runs its files one after another in the same module graph (isolate: false):
    // src is imported once per worker instead of once per file, about half the suite's CPU time. What a
    // file changes in the process (tunables such as setInlineLimit, the metrics registry's counts, env,
    // listeners) it puts back or starts from zero; test/leak-guard.ts fails the file that does not.
    // Vitest's default is one worker per core minus one, a single worker on a 2-core CI machine;
    // files spend much of their time waiting (child processes, sockets, PostgreSQL), so two overlap.
    pool: "forks",
    maxWorkers: 2,
    isolate: false,
  },
});
