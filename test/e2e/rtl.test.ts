import { AxeBuilder } from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ARTIFACTS,
  askForJob,
  card,
  DESKTOP,
  launchBrowser,
  PHONE,
  type RunningServer,
  shot,
  signedIn,
  startServer,
} from "./harness.js";
import { demoPerson } from "../support/server.js";

// The stylesheet uses logical properties (margin-inline-start, inset-inline-end, text-align:
// start…), so a right-to-left page mirrors instead of spilling over the edge. No shipped
// language is right-to-left yet: the page is switched by hand, as a new language would.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ demo: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const dan = () => demoPerson(server, "Dan");

async function seriousAxe(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Right-to-left now; then what spills: the page's own sideways scroll, and visible key elements outside the viewport. */
async function overflowInRtl(page: Page, selectors: string[]): Promise<string[]> {
  await page.evaluate(() => {
    document.documentElement.dir = "rtl";
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate((sels) => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      out.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    const width = root.clientWidth;
    for (const sel of sels)
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        if (r.left < -1 || r.right > width + 1)
          out.push(`${sel} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
      }
    return out;
  }, selectors);
}

const CHAT = [
  ".chat-head",
  ".composer",
  ".composer-input",
  ".timeline",
  "article.card",
  ".card-buttons",
  ".msg .bubble",
];
const LIST = [".sidebar", ".conv-row", ".search"];
const DRAWER = [".drawer", ".drawer-head", ".drawer-section", ".drawer-timeline"];

describe("right-to-left layout", () => {
  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    test(`${name} (${viewport.width} wide): list, chat with cards and the Job Drawer mirror without overflow; axe clean`, async () => {
      const { ctx, page } = await signedIn(browser, server.url, dan().token, viewport);
      try {
        const chat = `${server.url}/c/${server.demo!.conversation_id}`;
        await page.goto(chat);
        await page.getByRole("textbox", { name: "Message" }).waitFor();
        if ((await card(page, "formalize").count()) === 0)
          await askForJob(page, "Can you schedule a 30-min call with Maria next week?");
        await card(page, "formalize").waitFor();
        expect(await overflowInRtl(page, viewport === DESKTOP ? [...CHAT, ...LIST] : CHAT)).toEqual([]);
        // Mirrored: the composer's box sits to the left of the attach button in right-to-left.
        const [attach, input] = await Promise.all([
          page.getByRole("button", { name: "Attach a file" }).boundingBox(),
          page.locator(".composer-input").boundingBox(),
        ]);
        expect(input!.x).toBeLessThan(attach!.x);
        expect(await seriousAxe(page)).toEqual([]);
        await shot(page, `rtl-${name}-chat`);
        const jobId = await card(page, "formalize").getAttribute("data-job-id");

        if (viewport === PHONE) {
          await page.goto(server.url);
          await page.locator(".conv-row").first().waitFor();
          expect(await overflowInRtl(page, LIST)).toEqual([]);
          expect(await seriousAxe(page)).toEqual([]);
          await shot(page, `rtl-${name}-list`);
        }

        expect(jobId).toMatch(/^job_/);
        await page.goto(`${server.url}/jobs/${jobId}`);
        await page.getByRole("dialog", { name: "Job details" }).locator(".drawer-timeline").waitFor();
        expect(await overflowInRtl(page, DRAWER)).toEqual([]);
        expect(await seriousAxe(page)).toEqual([]);
        await shot(page, `rtl-${name}-drawer`);
      } finally {
        await ctx.close();
      }
    });
  }
});
