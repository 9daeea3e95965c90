import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  test: {
    root,
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
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // expect.poll's 1 s default fails a wait for a state that takes a moment on a loaded
          // 2-core machine (a write's fsync, a page's boot); polls still return as soon as it holds.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
