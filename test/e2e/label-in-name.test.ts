import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";
import { approveUntilWaiting, DESKTOP, launchBrowser, send } from "./harness.js";

/**
 * Label in name (WCAG 2.5.3): a control's accessible name contains the words it shows, so a
 * person who speaks what they see can use it. axe-core's `label-content-name-mismatch` (an
 * experimental rule, off unless asked for) finds nothing in the everyday screens: the list and
 * its profile button, a chat with a job's card, a direct chat with its message tools, a thread,
 * the Job Drawer and the profile dialog. With the Job Drawer open the chat's header still shows
 * its title whole.
 */
let server: TestServer;
let browser: Browser;
let jobId = "";
const DM = "cnv_dan_ana";
const dan = () => demoPerson(server, "Dan").token;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
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

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** Every control whose accessible name leaves out the words it shows, one "target: name" line each. */
async function mismatches(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const r = await axe.run(document, {
      runOnly: { type: "rule", values: ["label-content-name-mismatch"] },
      resultTypes: ["violations"],
    });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(" ")}: ${n.html.slice(0, 160)}`));
  });
}

describe("label in name", () => {
  test("no control's name leaves out the words it shows; the chat title stays whole beside the Job Drawer", async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan())}`);
      await page.locator(".sidebar").waitFor();
      const found: Record<string, string[]> = {};
      const check = async (state: string) => {
        const m = await mismatches(page);
        if (m.length) found[state] = m;
      };

      await page.goto(`${server.url}/c/cnv_9f2a`);
      await page.locator("article[data-card-type]").first().waitFor();
      await check("chat with a card");
      // Approved, the job's tracking card asks for details: its buttons too.
      await approveUntilWaiting(page);
      await check("chat with a tracking card");

      await page.goto(`${server.url}/c/${DM}`);
      await send(page, "Standup at 9:30 tomorrow");
      const it = page.locator(".timeline .item", { has: page.locator(".text", { hasText: "Standup at 9:30" }) }).last();
      await it.locator(".msg-tools").waitFor({ state: "attached" });
      await it.getByRole("button", { name: "React" }).click();
      await it.getByRole("button", { name: "React with 🎉" }).click();
      await it.locator(".reaction-chip").waitFor();
      await it.getByRole("button", { name: "Reply in thread" }).click();
      await page.locator(".thread-input").fill("Room 2");
      await page.locator(".thread-input").press("Enter");
      await page.locator(".thread-reply").waitFor();
      await it.locator(".thread-summary").waitFor();
      await check("direct chat, its tools, reactions and a thread");

      await page.goto(`${server.url}/jobs/${jobId}`);
      await page.locator(".drawer .drawer-timeline").waitFor();
      await check("job drawer");
      await page.getByRole("button", { name: "Provide info" }).first().click();
      await page.locator("dialog[open]").waitFor();
      await check("the job's input form");
      await page.keyboard.press("Escape");
      // Beside the drawer, the chat's header shows its title whole (not cut to a letter).
      const title = page.locator(".chat-head h1").first();
      await title.waitFor();
      const fits = await title.evaluate((el) => ({
        text: el.textContent?.trim() ?? "",
        whole: el.scrollWidth <= el.clientWidth + 1,
        width: el.getBoundingClientRect().width,
      }));
      expect(fits.text.length).toBeGreaterThan(1);
      expect(fits).toMatchObject({ whole: true });

      await page.goto(`${server.url}/`);
      await page.getByRole("button", { name: "Your profile" }).click();
      await page.locator("dialog[open]").waitFor();
      await check("profile dialog");

      expect(found).toEqual({});
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
