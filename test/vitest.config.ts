import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Each test says what it costs by the project it is in:
 * - pure: functions over data — no database, no socket (test/support/kind-guard.ts enforces it);
 * - module: one module in-process over a temporary SQLite database, no server;
 * - http: real servers on loopback ports (LogLine's own, SMTP, Radicale, MCP servers, a model
 *   double) and real processes started, signalled and killed;
 * - browser: Debian's Chromium driving the Messenger against a real server.
 * `npm run test:fast` runs pure + module; `npm test` runs all four.
 */
const PURE = [
  "test/contracts/golden-path.test.ts",
  "test/contracts/json-schema.test.ts",
  "test/shared/**/*.test.ts",
  "test/web/**/*.test.ts",
  "test/ledger/canonical-json.test.ts",
  "test/ledger/chain.test.ts",
  "test/ledger/merkle/rfc6962.test.ts",
  "test/ledger/merkle/note.test.ts",
  "test/office/when/**/*.test.ts",
  "test/gateway/presence.test.ts",
  "test/gateway/preview-address.test.ts",
  "test/job/**/*.test.ts",
];
const HTTP = [
  "test/http/**/*.test.ts",
  "test/ops/**/*.test.ts",
  "test/contracts/facts.test.ts",
  "test/ledger/crash.test.ts",
  "test/ledger/integrity.test.ts",
  "test/ledger/sse.test.ts",
  "test/ledger/routes.test.ts",
  "test/ledger/contract/**/*.test.ts",
  "test/ledger/pg/**/*.test.ts",
  "test/gateway/idempotency-contract.test.ts",
  "test/gateway/sse-hub.test.ts",
  "test/office/invite-replies.test.ts",
  "test/office/meeting-change.test.ts",
  "test/office/inbox.test.ts",
  "test/office/inbox-fencing.test.ts",
  "test/office/invite-outcomes.test.ts",
  "test/office/calendar/caldav.test.ts",
  "test/office/calendar/failures.test.ts",
  "test/office/mcp/**/*.test.ts",
  "test/office/mail/**/*.test.ts",
  "test/office/llm/**/*.test.ts",
];
const BROWSER = ["test/e2e/**/*.test.ts"];

const kind = (name: string, include: string[], exclude: string[], extra: Record<string, unknown> = {}) => ({
  test: {
    name,
    root,
    include,
    exclude: ["node_modules/**", ...exclude],
    setupFiles: ["test/support/kind-guard.ts", "test/support/file-start.ts", "test/support/file-cost.ts"],
    env: { LOGLINE_TEST_KIND: name },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files in one lane share loaded modules (no test mocks a module or leaves global state
    // behind): the server's ~300 modules load once per lane, not once per file.
    isolate: false,
    ...extra,
  },
});

export default defineConfig({
  test: {
    root,
    // Two files at a time, browser and server tests mixed in one queue: most of a test's time is
    // spent waiting on a server, a disk flush or a browser, so two lanes use a 2-core machine well
    // (Vitest's default is one worker fewer than the cores: a single lane here).
    maxWorkers: 2,
    projects: [
      kind("pure", PURE, []),
      kind("module", ["test/**/*.test.ts"], [...PURE, ...HTTP, ...BROWSER]),
      kind("http", HTTP, []),
      kind("browser", BROWSER, [], {
        testTimeout: 120_000,
        hookTimeout: 120_000,
        // Chromium's clock is the real one, so the servers these tests start run on real time too
        // (test/support/server.ts); every other test server runs at a stated instant.
        env: { LOGLINE_TEST_KIND: "browser", LOGLINE_TEST_CLOCK: "real" },
        setupFiles: [
          "test/support/kind-guard.ts",
          "test/support/file-start.ts",
          "test/support/file-cost.ts",
          "test/support/browser-failures.ts",
        ],
        // expect.poll's 1 s default fails a wait for a state that takes a moment on a loaded
        // 2-core machine (a write's fsync, a page's boot); polls still return as soon as it holds.
        expect: { poll: { timeout: 15_000 } },
        // A stopgap, reported as a retry in the output: about one run in three, one page of one
        // browser test does not finish loading (the sign-in page's heading, a chat's header) while
        // the other lane is busy. The cause is not found yet; a second failure still fails.
        retry: 1,
      }),
    ],
  },
});
