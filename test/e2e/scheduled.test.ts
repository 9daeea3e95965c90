import { rmSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { Clock } from "../../src/shared/clock.js";
import { statedClock } from "../support/clock.js";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, send, signedIn, textOf } from "./harness.js";

/**
 * Send later and Remind me in the browser: Ana types a message and schedules it for 20 minutes
 * on; it waits under Scheduled; when the server's clock has moved past it, Dan sees it arrive
 * live. Dan asks to be reminded of Ana's message in an hour; when that falls due his own
 * Reminders conversation shows it. The server's clock is moved by the test (never a real wait).
 */
let server: TestServer;
let browser: Browser;
let dataDir: string;
const DM = "cnv_dan_ana";
const ana = () => demoPerson(server, "Ana");
const dan = () => demoPerson(server, "Dan");

/** The stated clock, plus minutes the test moves it on by. */
let skipped = 0;
const base = statedClock();
const clock: Clock = {
  ...base,
  now: () => base.now() + skipped,
  iso: () => new Date(base.now() + skipped).toISOString(),
};
async function moveOn(minutes: number) {
  skipped += minutes * 60_000;
  await server.server.gateway.runScheduled();
}

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
// A server of its own for each attempt, its clock at the stated instant again: a retry must not
// find the first attempt's scheduled message, nor a clock already moved on.
beforeEach(async () => {
  skipped = 0;
  server = await startTestServer({ keep: true, clock });
  dataDir = server.dataDir;
}, 60_000);
afterEach(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
afterAll(async () => {
  await browser?.close();
});

/** The timeline's messages and notes (a reminder, from the server, reads as a note). */
const bubbles = (page: Page) => page.locator(".timeline .item .text, .timeline .sys span").allTextContents();

describe("send later and reminders", () => {
  test("a message scheduled for later arrives when due; a reminder comes to my own Reminders", async () => {
    const a = await signedIn(browser, server.url, ana().token);
    const d = await signedIn(browser, server.url, dan().token);
    try {
      await a.page.goto(`${server.url}/c/${DM}`);
      await d.page.goto(`${server.url}/c/${DM}`);
      await a.page.locator("#composer-input").fill("Reminder: demo at 3");
      await a.page.getByRole("button", { name: "Send later" }).click();
      await a.page.getByRole("radio", { name: "In 20 minutes" }).check();
      await a.page.getByRole("button", { name: "Schedule", exact: true }).click();
      await expect.poll(() => a.page.locator("#composer-input").inputValue()).toBe("");
      // It waits under Scheduled, and nobody has it yet.
      await a.page.getByRole("button", { name: "Scheduled" }).click();
      const row = a.page.locator(".scheduled-row", { hasText: "Reminder: demo at 3" });
      await expect.poll(() => textOf(row.locator(".person-sub"))).toMatch(/^Goes /);
      await a.page.keyboard.press("Escape");
      expect(await bubbles(d.page)).not.toContain("Reminder: demo at 3");

      await moveOn(21);
      await expect.poll(() => bubbles(d.page)).toContain("Reminder: demo at 3");
      await expect.poll(() => bubbles(a.page)).toContain("Reminder: demo at 3");
      await a.page.getByRole("button", { name: "Scheduled" }).click();
      await expect.poll(() => textOf(row.locator(".person-sub"))).toMatch(/^Sent /);
      await a.page.keyboard.press("Escape");

      // Dan: Remind me about Ana's message, in an hour.
      await send(a.page, "Send me the contract draft");
      const item = d.page
        .locator(".timeline .item", { has: d.page.locator(".text", { hasText: "Send me the contract draft" }) })
        .last();
      await item.waitFor();
      await item.hover();
      await item.getByRole("button", { name: "Remind me" }).click();
      await d.page.getByRole("radio", { name: "In 1 hour" }).check();
      await d.page.getByRole("button", { name: "Remind me", exact: true }).last().click();
      // The clock moves on only once the server has the reminder (the toast follows its answer):
      // moved before, the reminder would be set for an hour after the moved clock.
      await d.page.locator(".toast", { hasText: "Reminder set." }).waitFor();
      await moveOn(61);
      const reminders = d.page.locator(".conv-list a.conv-row", { hasText: "Reminders" }).first();
      await reminders.waitFor();
      await reminders.click();
      await expect.poll(() => bubbles(d.page)).toEqual(["⏰ Reminder — in Ana: “Send me the contract draft”"]);
      // Ana has no such conversation.
      expect(await a.page.locator(".conv-list a.conv-row", { hasText: "Reminders" }).count()).toBe(0);
    } finally {
      await a.ctx.close();
      await d.ctx.close();
    }
  });
  test("Send later with a file staged says it takes text only, and leaves the file and the words as they were", async () => {
    const a = await signedIn(browser, server.url, ana().token);
    try {
      await a.page.goto(`${server.url}/c/${DM}`);
      await a.page.getByTestId("file-input").setInputFiles({
        name: "agenda.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("1. Demo\n2. Questions\n"),
      });
      await a.page.locator("#composer-input").fill("The agenda for Friday");
      await a.page.getByRole("button", { name: "Send later" }).click();
      await expect
        .poll(() => textOf(a.page.locator(".toast")))
        .toBe("Send later takes a text message only: send the files now, or take them off first.");
      expect(await a.page.locator("dialog[open]").count()).toBe(0);
      expect(await a.page.locator("#composer-input").inputValue()).toBe("The agenda for Friday");
      expect(await a.page.locator(".staged-files").textContent()).toContain("agenda.txt");
    } finally {
      await a.ctx.close();
    }
  });
});
