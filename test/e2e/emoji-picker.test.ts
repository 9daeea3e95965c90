import { AxeBuilder } from "@axe-core/playwright";
import { rmSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, signedIn, textOf } from "./harness.js";

/**
 * The composer's emoji picker, by keyboard: open it, search by name, arrow into the grid, insert
 * at the caret, Escape back to the button; every emoji is named, the set comes from this server
 * only, and axe finds nothing serious. The message with the emoji reaches the other person live
 * and is the same after a reload and a restart; someone outside the conversation never gets it.
 */
let server: TestServer;
let browser: Browser;
let dataDir: string;
const DM = "cnv_dan_ana";
const dan = () => demoPerson(server, "Dan");
const ana = () => demoPerson(server, "Ana");

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ keep: true }), launchBrowser()]);
  dataDir = server.dataDir;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const focused = (page: Page) =>
  page.evaluate(
    () =>
      `${document.activeElement?.id || document.activeElement?.className}|${document.activeElement?.getAttribute("aria-label") ?? ""}`,
  );
const bubble = (page: Page, text: string) => page.locator(".timeline .msg .text", { hasText: text }).last();

describe("emoji picker in the composer", () => {
  test("keyboard: search, arrow in, insert at the caret, Escape back; sent live; the same after reload and restart", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    const elsewhere: string[] = [];
    d.page.on("request", (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith("data:") && !r.url().startsWith("blob:"))
        elsewhere.push(r.url());
    });
    try {
      await d.page.goto(`${server.url}/c/${DM}`);
      await a.page.goto(`${server.url}/c/${DM}`);
      const box = d.page.getByRole("textbox", { name: "Message" });
      await box.fill("Great work  team");
      // The caret between the two spaces: the emoji goes there.
      await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(11, 11));

      await d.page.getByRole("button", { name: "Emoji", exact: true }).focus();
      await d.page.keyboard.press("Enter");
      const panel = d.page.getByRole("dialog", { name: "Emoji picker" });
      await panel.waitFor();
      await expect.poll(() => focused(d.page)).toBe("emoji-search|Search emoji");
      await expect.poll(() => panel.locator(".emoji-cell").count()).toBeGreaterThan(50);
      await expect
        .poll(() => d.page.getByRole("button", { name: "Emoji", exact: true }).getAttribute("aria-expanded"))
        .toBe("true");
      const axe = await new AxeBuilder({ page: d.page }).include(".composer").analyze();
      expect(
        axe.violations
          .filter((v) => v.impact === "critical" || v.impact === "serious")
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ).toEqual([]);
      // Every emoji has a name.
      expect(await panel.locator(".emoji-cell:not([aria-label])").count()).toBe(0);

      await d.page.keyboard.type("party popper");
      await expect.poll(() => panel.locator(".emoji-cell").first().getAttribute("aria-label")).toBe("party popper");
      await d.page.keyboard.press("ArrowDown");
      await expect.poll(() => focused(d.page)).toBe("emoji-cell|party popper");
      await d.page.keyboard.press("Enter");
      await expect.poll(() => panel.count()).toBe(0);
      await expect.poll(() => box.inputValue()).toBe("Great work 🎉 team");
      await expect.poll(() => focused(d.page)).toContain("composer-input");

      // A group, then arrows in the grid; Escape closes and focus returns to the button.
      await d.page.getByRole("button", { name: "Emoji", exact: true }).click();
      await panel.getByRole("button", { name: "Animals and nature" }).click();
      await expect
        .poll(() => panel.getByRole("button", { name: "Animals and nature" }).getAttribute("aria-pressed"))
        .toBe("true");
      await panel.locator(".emoji-search").focus();
      await d.page.keyboard.press("ArrowDown");
      await expect.poll(() => d.page.evaluate(() => document.activeElement?.getAttribute("data-index"))).toBe("0");
      await d.page.keyboard.press("ArrowRight");
      await expect.poll(() => d.page.evaluate(() => document.activeElement?.getAttribute("data-index"))).toBe("1");
      await d.page.keyboard.press("Escape");
      await expect.poll(() => panel.count()).toBe(0);
      await expect.poll(() => focused(d.page)).toBe("emoji-button|Emoji");
      expect(await box.inputValue()).toBe("Great work 🎉 team");

      await box.press("Enter");
      await bubble(a.page, "Great work 🎉 team").waitFor();
      expect(elsewhere).toEqual([]);
      await a.page.reload();
      await bubble(a.page, "Great work 🎉 team").waitFor();
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }

    await server.close();
    server = await startTestServer({ keep: true, dataDir });
    const a2 = await signedIn(browser, server.url, ana().token);
    try {
      await a2.page.goto(`${server.url}/c/${DM}`);
      await bubble(a2.page, "Great work 🎉 team").waitFor();
      // Dan's chat with the agent is not Ana's: opening it shows her nothing of it.
      await a2.page.goto(`${server.url}/c/cnv_9f2a`);
      await expect.poll(() => textOf(a2.page.locator(".toast"))).not.toBe("");
      expect(await a2.page.locator(".timeline .msg").count()).toBe(0);
    } finally {
      await a2.ctx.close();
    }
  }, 120_000);
});
