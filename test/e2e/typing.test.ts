import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { approveUntilWaiting, askForJob, launchBrowser, send, signedIn, textOf } from "./harness.js";

/**
 * Typing between two live browsers: Ana sees "Dan is typing…" while he types and not after his
 * message arrives; Dan never sees his own. An agent at work on a job shows "working on …".
 */
let server: TestServer;
let browser: Browser;
const dan = () => server.demo.humans.find((h) => h.display_name === "Dan")!;
const ana = () => server.demo.humans.find((h) => h.display_name === "Ana")!;
const DIRECT = "cnv_dan_ana";

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("typing indicators", () => {
  test("the other person sees 'is typing…' while I type, and it goes when my message arrives", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    await d.page.goto(`${server.url}/c/${DIRECT}`);
    await a.page.goto(`${server.url}/c/${DIRECT}`);
    await a.page.getByRole("textbox", { name: "Message" }).waitFor();
    const line = a.page.locator(".typing-line");
    expect(await line.getAttribute("role")).toBe("status");

    const box = d.page.getByRole("textbox", { name: "Message" });
    await box.click();
    await box.pressSequentially("See you at", { delay: 30 });
    await expect.poll(() => textOf(line), { timeout: 10_000 }).toBe("Dan is typing…");
    expect(await textOf(d.page.locator(".typing-line"))).toBe("");
    await box.press("Enter");
    await a.page.locator(".msg .text", { hasText: "See you at" }).waitFor();
    expect(await textOf(line)).toBe("");

    // Typing without sending (past the server's 2 s between signals): it fades on its own a few seconds later.
    await d.page.waitForTimeout(2100);
    await box.pressSequentially("hmm", { delay: 30 });
    await expect.poll(() => textOf(line), { timeout: 10_000 }).toBe("Dan is typing…");
    await expect.poll(() => textOf(line), { timeout: 12_000 }).toBe("");
    await d.ctx.close();
    await a.ctx.close();
  }, 90_000);

  test("an agent at work on a job shows 'working on …' above the composer", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    await d.page.goto(`${server.url}/c/${server.demo.conversation_id}`);
    await d.page.getByRole("textbox", { name: "Message" }).waitFor();
    // Everything the line says, recorded as it changes.
    await d.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenTyping: string[] }).seenTyping = seen;
      new MutationObserver(() => {
        const text = document.querySelector(".typing-line")?.textContent?.trim();
        if (text && !seen.includes(text)) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await askForJob(d.page, "Can you schedule a 30-min call with Maria next week?");
    await approveUntilWaiting(d.page);
    const seen = await d.page.evaluate(() => (window as unknown as { seenTyping: string[] }).seenTyping);
    expect(
      seen.some((s) => /^Office Scheduler is working on .+…$/.test(s)),
      JSON.stringify(seen),
    ).toBe(true);
    await send(d.page, "thanks");
    await d.ctx.close();
  }, 90_000);
});
