import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A fresh process per file: module state (the metrics registry, inline limits) never leaks between
    // files. Vitest's default is one worker per core minus one, a single worker on a 2-core CI machine;
    // files spend much of their time waiting (child processes, sockets, PostgreSQL), so two overlap.
    pool: "forks",
    maxWorkers: 2,
  },
});
