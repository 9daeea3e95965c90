import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  test: {
    root,
    // Two files at a time, browser and server tests mixed in one queue: most of a test's time is
    // spent waiting on a server, a disk flush or a browser, so two lanes use a 2-core machine well
    // (Vitest's default is one worker fewer than the cores: a single lane here).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          root,
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "node_modules/**"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "browser",
          root,
          // Chromium's clock is the real one, so the servers these tests start run on real time too
          // (test/support/server.ts); every other test server runs at a stated instant.
          env: { LOGLINE_TEST_CLOCK: "real" },
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll's 1 s default fails a wait for a state that takes a moment on a loaded
          // 2-core machine (a write's fsync, a page's boot); polls still return as soon as it holds.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
