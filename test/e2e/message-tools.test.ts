import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, PHONE, send, seriousAxe, signedIn } from "./harness.js";

/**
 * A message's tools (Reply, React, …) take no room between bubbles: the vertical gap between
 * consecutive bubbles is the same with the tools in the page as with them taken out, and stays
 * so while they show (on hover, when one has focus, after a tap on a touch screen). Hidden, they
 * do not stand in the way of the message below them.
 */
let server: TestServer;
let browser: Browser;
const DM = "cnv_dan_ana";
const TEXTS = ["First, the agenda", "Second, the room", "Third, the coffee"];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const item = (page: Page, text: string) =>
  page.locator(".timeline .item", { has: page.locator(".text", { hasText: text }) }).last();
const bubble = (page: Page, text: string) => item(page, text).locator(".bubble");

/** The vertical gaps (px) between the bubbles of TEXTS, top to bottom. */
async function gaps(page: Page): Promise<number[]> {
  const boxes: { y: number; height: number }[] = [];
  for (const t of TEXTS) boxes.push((await bubble(page, t).boundingBox())!);
  return boxes.slice(1).map((b, i) => Math.round(b.y - (boxes[i]!.y + boxes[i]!.height)));
}
/** The gaps with every message's tools taken out of the page (what the bubbles would be without them). */
async function gapsWithoutTools(page: Page): Promise<number[]> {
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const setTools = (display: string) =>
    page.evaluate((d) => {
      for (const el of document.querySelectorAll<HTMLElement>(".msg-tools")) el.style.display = d;
    }, display);
  await setTools("none");
  await frames();
  const g = await gaps(page);
  await setTools("");
  await frames();
  return g;
}
const shown = (page: Page, text: string) =>
  item(page, text)
    .locator(".msg-tools")
    .evaluate((el) => getComputedStyle(el).opacity);

describe("message tools take no room between bubbles", () => {
  test("the gap between bubbles is the same with and without the tools, hovered, focused or not", async () => {
    const d = await signedIn(browser, server.url, demoPerson(server, "Dan").token);
    try {
      await d.page.goto(`${server.url}/c/${DM}`);
      for (const t of TEXTS) {
        await send(d.page, t);
        await item(d.page, t).locator(".msg-tools").waitFor({ state: "attached" });
      }
      const without = await gapsWithoutTools(d.page);
      // Consecutive bubbles of one sender sit close: only the rows' own spacing between them.
      for (const g of without) expect(g).toBeLessThan(12);
      expect(await gaps(d.page)).toEqual(without);
      expect(await shown(d.page, TEXTS[0]!)).toBe("0");

      // Hovered, the first message's tools show below its bubble, over the next: nothing moves.
      await bubble(d.page, TEXTS[0]!).hover();
      await expect.poll(() => shown(d.page, TEXTS[0]!)).toBe("1");
      const b0 = (await bubble(d.page, TEXTS[0]!).boundingBox())!;
      const tools = (await item(d.page, TEXTS[0]!).locator(".msg-tools").boundingBox())!;
      expect(tools.y).toBeGreaterThanOrEqual(b0.y + b0.height - 1);
      expect(await gaps(d.page)).toEqual(without);
      // Pointing at the second bubble, then at its first line (where the first message's hidden
      // tools lie): the second message is the one pointed at, and the first one's tools stay hidden.
      const b1 = (await bubble(d.page, TEXTS[1]!).boundingBox())!;
      await d.page.mouse.move(b1.x + b1.width / 2, b1.y + b1.height - 3);
      await d.page.mouse.move(b1.x + 12, b1.y + 4, { steps: 4 });
      await expect.poll(() => shown(d.page, TEXTS[0]!)).toBe("0");
      expect(
        await d.page.evaluate(
          ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest(".item")?.textContent?.includes("Second, the room"),
          [b1.x + 12, b1.y + 4],
        ),
      ).toBe(true);

      // Pointed at again, its tools show, and a click on one works where it shows.
      await bubble(d.page, TEXTS[0]!).hover();
      await item(d.page, TEXTS[0]!).getByRole("button", { name: "React" }).click();
      await item(d.page, TEXTS[0]!).locator(".reaction-picker").waitFor();
      await d.page.keyboard.press("Escape");
      await d.page.getByRole("textbox", { name: "Message" }).focus();

      // By keyboard: a focused tool shows its row; the bubbles stay where they were.
      await d.page.mouse.move(0, 0);
      await item(d.page, TEXTS[1]!).getByRole("button", { name: "Reply", exact: true }).focus();
      await expect.poll(() => shown(d.page, TEXTS[1]!)).toBe("1");
      expect(await gaps(d.page)).toEqual(without);
      expect(await seriousAxe(d.page, ".timeline")).toEqual([]);
    } finally {
      await d.ctx.close();
    }
  }, 90_000);

  test("on a touch screen a tap on a bubble shows its tools and a second tap hides them; the gaps stay", async () => {
    const ctx = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(demoPerson(server, "Dan").token)}`);
      await page.locator(".sidebar").waitFor();
      await page.goto(`${server.url}/c/${DM}`);
      await bubble(page, TEXTS[2]!).waitFor();
      expect(await page.evaluate(() => matchMedia("(hover: none)").matches)).toBe(true);
      const without = await gapsWithoutTools(page);
      expect(await gaps(page)).toEqual(without);
      expect(await shown(page, TEXTS[1]!)).toBe("0");
      await bubble(page, TEXTS[1]!).locator(".text").tap();
      await expect.poll(() => shown(page, TEXTS[1]!)).toBe("1");
      expect(await gaps(page)).toEqual(without);
      // Another bubble's tap moves them there.
      await bubble(page, TEXTS[0]!).locator(".text").tap();
      await expect.poll(() => shown(page, TEXTS[0]!)).toBe("1");
      await expect.poll(() => shown(page, TEXTS[1]!)).toBe("0");
      await bubble(page, TEXTS[0]!).locator(".text").tap();
      await expect.poll(() => shown(page, TEXTS[0]!)).toBe("0");
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
