import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";
import { DESKTOP, launchBrowser, PHONE } from "./harness.js";

/**
 * axe-core (0 critical, 0 serious) in light and dark, on a phone and a desktop: sign-in, each
 * onboarding step, the Quick actions menu open, the Job Drawer, the Admin screen (with a policy
 * preview open), its confirm dialog, the Outbox and Tools. One signed-out and one signed-in page
 * load per size; screens switch inside it as a person's clicks would (the router follows
 * history), and each state is scanned in both themes (the page follows the system's scheme
 * live). Overlays are scanned on their own: the page behind was scanned in the state before.
 */
let server: TestServer;
let browser: Browser;
let jobId = "";
const dan = () => demoPerson(server, "Dan").token;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  // A job, so the Job Drawer has something to show.
  await postJson(`${server.url}/v1/conversations/cnv_9f2a/messages`, dan(), {
    kind: "text",
    body_text: "Can you schedule a 30-min call with Maria next week?",
  });
  jobId = await waitFor(
    async () =>
      ((await getJson(`${server.url}/v1/conversations/cnv_9f2a/timeline`, dan())).body.items as any[]).find(
        (i) => i.job_id,
      )?.job_id ?? null,
    10_000,
    "a job",
  );
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * axe-core's critical and serious findings. axe is put in the page once per page load (the
 * screens switch inside it), and asked for violations only: several times cheaper per state
 * than a fresh injection for each scan.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
async function serious(page: Page, within?: string, rules?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ([sel, only]) => {
      const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
      const r = await axe.run(sel ? { include: [sel] } : document, {
        resultTypes: ["violations"],
        ...(only ? { runOnly: { type: "rule", values: only } } : {}),
      });
      return r.violations
        .filter((v) => v.impact === "critical" || v.impact === "serious")
        .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
    },
    [within ?? null, rules ?? null] as const,
  );
}
/** axe-core's rules whose verdict depends on colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
/** Client-side navigation, as the app's own links do it. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState(null, "", p);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

const SIZES = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;

describe("axe in light and dark", () => {
  test.each(SIZES)(
    "%s: sign-in, onboarding, menu, drawer, admin, its dialog, Outbox and Tools",
    async (_size, viewport) => {
      const found: Record<string, string[]> = {};
      /**
       * Each state is scanned in both themes: the page follows the system's scheme live. A theme
       * changes colours only, so dark is scanned with the rules that read colours.
       */
      const check = async (page: Page, state: string, within?: string) => {
        for (const theme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: theme });
          await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          const issues = await serious(page, within, theme === "dark" ? COLOUR_RULES : undefined);
          if (issues.length) found[`${state} (${theme})`] = issues;
        }
      };

      const anon = await browser.newContext({ viewport });
      try {
        const page = await anon.newPage();
        await page.goto(`${server.url}/signin`);
        await page.getByRole("heading", { level: 1 }).waitFor();
        expect(await page.locator("main h1").count()).toBe(1);
        await check(page, "sign-in");
        await go(page, "/onboarding");
        await page.getByRole("heading", { level: 1, name: "Create your workspace" }).waitFor();
        expect(await page.locator("main h1").count()).toBe(1);
        await check(page, "onboarding: workspace");
      } finally {
        await anon.close();
      }

      const ctx = await browser.newContext({ viewport });
      try {
        const page = await ctx.newPage();
        await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan())}`);
        await page.locator(".sidebar").waitFor();
        await go(page, "/onboarding");
        await page.getByRole("heading", { level: 1, name: "Invite a coworker" }).waitFor();
        await check(page, "onboarding: invite");
        await go(page, "/");
        await go(page, "/onboarding?step=agent");
        await page.getByRole("heading", { level: 1, name: "Add an agent coworker" }).waitFor();
        await check(page, "onboarding: agent");

        await go(page, "/c/cnv_9f2a");
        await page.getByRole("button", { name: "Quick actions" }).click();
        await page.getByRole("menu", { name: "Quick actions" }).waitFor();
        await check(page, "quick actions menu", ".composer");
        expect(await page.getByRole("menu", { name: "Quick actions" }).count()).toBe(1);
        await page.keyboard.press("Escape");

        await go(page, `/jobs/${jobId}`);
        await page.locator(".drawer .drawer-timeline").waitFor();
        await check(page, "drawer", ".drawer");

        await go(page, "/admin");
        await page.locator("#policy-modes-policy-message-edit-window").waitFor();
        await page
          .getByRole("button", { name: /Revoke/ })
          .first()
          .waitFor();
        await page.locator("#policy-modes-policy-message-edit-window").selectOption("off");
        await page.getByRole("button", { name: "Preview changes" }).click();
        await page.getByRole("heading", { name: "What changes" }).waitFor();
        await check(page, "admin");
        await page.getByRole("button", { name: "Deactivate Ana" }).click();
        await page.getByRole("dialog").waitFor();
        await check(page, "admin: confirm dialog", "dialog[open]");
        expect(await page.locator("dialog[open]").count()).toBe(1);
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });

        await go(page, "/outbox");
        await page.getByRole("heading", { name: "Outbox" }).waitFor();
        await check(page, "outbox");
        await go(page, "/tools");
        await page.getByRole("heading", { name: "Tools" }).waitFor();
        await check(page, "tools");
      } finally {
        await ctx.close();
      }
      expect(found).toEqual({});
    },
    120_000,
  );
});
