import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { launchBrowser, send, signedIn, textOf } from "./harness.js";

/**
 * Dan and Ana, each in their own browser, in their direct chat: a reply with its quote and the
 * jump to the original, a reaction, an edit and a deletion, each seen live by the other; the
 * actions are reached by keyboard, and axe finds nothing critical or serious.
 */
let server: TestServer;
let browser: Browser;
const DM = "cnv_dan_ana";
const dan = () => demoPerson(server, "Dan");
const ana = () => demoPerson(server, "Ana");

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const open = async (page: Page) => {
  await page.locator(`[data-conversation-id="${DM}"]`).click();
  await expect.poll(() => page.url()).toContain(`/c/${DM}`);
};
/** The timeline item of the message whose bubble shows `text`. */
const item = (page: Page, text: string) =>
  page.locator(".timeline .item", { has: page.locator(".text", { hasText: text }) }).last();

describe("edit, delete, reply and react, live between two people", () => {
  test("Ana replies, reacts; Dan edits and deletes; each sees the other's change", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    try {
      await open(d.page);
      await open(a.page);
      await send(d.page, "Lunch at 12 on Friday?");
      await item(a.page, "Lunch at 12 on Friday?").waitFor();

      // Ana replies: Reply on the bubble, by keyboard; the composer says what she answers.
      const original = item(a.page, "Lunch at 12 on Friday?");
      await original.getByRole("button", { name: "Reply", exact: true }).focus();
      await a.page.keyboard.press("Enter");
      await expect.poll(() => textOf(a.page.locator(".compose-mode"))).toContain("Replying to Dan");
      // Esc cancels, Reply again, and send.
      await a.page.getByRole("textbox", { name: "Message" }).press("Escape");
      await expect.poll(() => a.page.locator(".compose-mode").count()).toBe(0);
      await original.getByRole("button", { name: "Reply", exact: true }).click();
      await send(a.page, "Yes, see you there");
      const replyOnDan = item(d.page, "Yes, see you there");
      await replyOnDan.waitFor();
      await expect.poll(() => textOf(replyOnDan.locator(".reply-quote"))).toContain("Lunch at 12 on Friday?");
      // The quote jumps to the original and highlights it.
      await replyOnDan.locator(".reply-quote").click();
      await expect.poll(() => item(d.page, "Lunch at 12 on Friday?").getAttribute("class")).toContain("item-highlight");

      // Ana reacts 🎉 from the picker; Dan sees the chip with her name.
      await original.getByRole("button", { name: "React" }).click();
      await original.getByRole("button", { name: "React with 🎉" }).click();
      const chip = item(d.page, "Lunch at 12 on Friday?").locator(".reaction-chip");
      await expect.poll(() => chip.getAttribute("aria-label")).toBe("🎉 1: Ana");
      // Dan adds his; pressing it again takes only his off.
      await chip.click();
      await expect
        .poll(() => item(a.page, "Lunch at 12 on Friday?").locator(".reaction-chip").getAttribute("aria-label"))
        .toBe("🎉 2: Ana, Dan (press to remove yours)");
      await chip.click();
      await expect
        .poll(() => item(a.page, "Lunch at 12 on Friday?").locator(".reaction-chip").getAttribute("aria-label"))
        .toBe("🎉 1: Ana (press to remove yours)");

      const axe = await new AxeBuilder({ page: d.page }).include(".timeline").include(".composer").analyze();
      expect(
        axe.violations
          .filter((v) => v.impact === "critical" || v.impact === "serious")
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ).toEqual([]);

      // Dan edits: the composer fills with his text; Ana sees the new text marked edited, and the quote follows.
      await item(d.page, "Lunch at 12 on Friday?").getByRole("button", { name: "Edit" }).click();
      await expect.poll(() => textOf(d.page.locator(".compose-mode"))).toContain("Editing your message");
      await expect
        .poll(() => d.page.getByRole("textbox", { name: "Message" }).inputValue())
        .toBe("Lunch at 12 on Friday?");
      await d.page.getByRole("textbox", { name: "Message" }).fill("Lunch at 12:30 on Friday?");
      await d.page.getByRole("textbox", { name: "Message" }).press("Enter");
      const edited = item(a.page, "Lunch at 12:30 on Friday?");
      await edited.waitFor();
      await expect.poll(() => textOf(edited.locator(".edited-mark"))).toBe("edited");
      await expect.poll(() => textOf(item(a.page, "Yes, see you there").locator(".reply-quote"))).toContain("12:30");
      // Ana cannot edit or delete Dan's message: those buttons are not offered to her.
      expect(await edited.getByRole("button", { name: "Edit" }).count()).toBe(0);
      expect(await edited.getByRole("button", { name: "Delete" }).count()).toBe(0);

      // Dan deletes it (confirming); Ana sees "Message deleted", and the text is gone from her page.
      await item(d.page, "Lunch at 12:30 on Friday?").getByRole("button", { name: "Delete" }).click();
      await d.page.getByRole("button", { name: "Delete", exact: true }).last().click();
      await expect.poll(() => a.page.locator(".timeline .deleted-text").count()).toBe(1);
      await expect
        .poll(() => textOf(item(a.page, "Yes, see you there").locator(".reply-quote")))
        .toContain("Message deleted");
      expect(await a.page.locator(".timeline").textContent()).not.toContain("Lunch at 12");
      expect(await d.page.locator(".timeline").textContent()).not.toContain("Lunch at 12");
      // And after a reload, from the server's projections.
      await a.page.reload();
      await a.page.locator(".timeline .deleted-text").waitFor();
      expect(await a.page.locator(".timeline").textContent()).not.toContain("Lunch at 12");

      const axe2 = await new AxeBuilder({ page: a.page }).include(".timeline").analyze();
      expect(axe2.violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => v.id)).toEqual(
        [],
      );
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }
  });
});
