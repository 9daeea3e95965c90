import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ARTIFACTS,
  card,
  launchBrowser,
  PHONE,
  send,
  signedIn,
  startServer,
  type RunningServer,
  seriousAxe,
} from "./harness.js";
import { demoPerson } from "../support/server.js";

/**
 * The golden path by keyboard, with what a screen reader is told: focus is never dropped to
 * <body>, it follows the job to its next card, it returns to the opener when a modal or the Job
 * Drawer closes, Tab never reaches what is behind a modal, and the one status line says short
 * things at the right moments (nothing when a conversation opens).
 */

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

/** A short description of the focused element, for messages and comparisons. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return "body";
    const card = a.closest("article[data-card-id]") as HTMLElement | null;
    return `${a.tagName.toLowerCase()}|${a.textContent?.trim().slice(0, 40) ?? ""}|${card?.dataset.cardType ?? ""}|${card?.dataset.cardId ?? ""}`;
  });
const announced = (page: Page) => page.evaluate(() => document.getElementById("announcer")?.textContent ?? "");
/** Whether the focused element is inside the element matching `selector`. */
const focusInside = (page: Page, selector: string) =>
  page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);

describe("keyboard and screen reader", () => {
  test("opening a conversation says nothing; a skip link reaches the composer; the tab names the view", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    try {
      await page.goto(`${server.url}/c/cnv_9f2a`);
      await page.getByRole("textbox", { name: "Message" }).waitFor();
      await page.locator(".timeline .loading").waitFor({ state: "detached" });
      // The timeline is not a live region, and the status line stays empty on open.
      expect(await page.locator(".timeline[aria-live], .timeline[role=log]").count()).toBe(0);
      await page.waitForTimeout(600);
      expect(await announced(page)).toBe("");
      expect(await page.locator("h1").count()).toBe(1);
      expect(await page.locator("main").count()).toBe(1);
      expect(await page.title()).toMatch(/ · LogLine$/);

      // The first Tab lands on the skip link; Enter puts focus in the message box.
      // Sequential navigation from the top of the page.
      await page.evaluate(() => {
        document.body.tabIndex = -1;
        document.body.focus();
        document.body.removeAttribute("tabindex");
      });
      await page.keyboard.press("Tab");
      expect(await focused(page)).toMatch(/^a\|Skip to the message box/);
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("composer-input");
    } finally {
      await ctx.close();
    }
  });

  test("Approve by keyboard: focus follows the job to its next card and one short line says what happened", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    try {
      await page.goto(`${server.url}/c/cnv_9f2a`);
      await page.getByRole("textbox", { name: "Message" }).waitFor();
      const before = await page.locator('article[data-card-type="job.formalize"]').count();
      await send(page, "Can you schedule a 30-min call with Maria next week?");
      await expect
        .poll(() => page.locator('article[data-card-type="job.formalize"]').count(), { timeout: 15_000 })
        .toBe(before + 1);
      const proposal = card(page, "formalize");
      // Someone else's new item is said once, briefly; your own message is not.
      await expect.poll(() => announced(page)).toMatch(/proposes a job: /);
      expect(await announced(page)).not.toMatch(/Maria next week\?/);
      const proposalId = await proposal.getAttribute("data-card-id");

      await proposal.getByRole("button", { name: "Approve" }).focus();
      await page.keyboard.press("Enter");
      // While pending and once done, the button keeps focus (never <body>) …
      expect(await focused(page)).not.toBe("body");
      // … until the job's next card arrives: focus moves to its first live button.
      await expect.poll(() => focused(page), { timeout: 15_000 }).toMatch(/\|job\.tracking\|/);
      expect(await focused(page)).not.toContain(proposalId!);
      expect(await focused(page)).toMatch(/^button\|/);
      // One status line: what you did, then what the agent answered.
      await expect.poll(() => announced(page)).toMatch(/You approved “[^”]+”\./);
      const line = await announced(page);
      expect(line.match(/approved/g)?.length).toBe(1);
      expect(line.length).toBeLessThanOrEqual(2 * 160 + 1);

      // The done Approve button is aria-disabled, still in the tab order, and inert to Enter.
      const approve = proposal.getByRole("button", { name: /Approve/ });
      expect(await approve.getAttribute("aria-disabled")).toBe("true");
      expect(await approve.getAttribute("disabled")).toBeNull();
    } finally {
      await ctx.close();
    }
  });

  test("modals trap Tab and give focus back to their opener; Escape closes them", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    try {
      await page.goto(`${server.url}/c/cnv_9f2a`);
      await page.getByRole("textbox", { name: "Message" }).waitFor();
      const opener = page.getByRole("button", { name: "New conversation" }).first();
      await opener.focus();
      await page.keyboard.press("Enter");
      const dialog = page.locator("dialog.backdrop[open]");
      await dialog.waitFor();
      expect(await focusInside(page, "dialog[open]")).toBe(true);
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press("Tab");
        expect(await focusInside(page, "dialog[open]"), `Tab ${i + 1} left the dialog: ${await focused(page)}`).toBe(
          true,
        );
      }
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press("Shift+Tab");
        expect(await focusInside(page, "dialog[open]")).toBe(true);
      }
      expect(await seriousAxe(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      expect(
        await page.evaluate(
          () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim(),
        ),
      ).toMatch(/New conversation/);
    } finally {
      await ctx.close();
    }
  });

  test("the Job Drawer gives focus back on close; on a phone it is a modal sheet Tab cannot leave", async () => {
    const { ctx: c2, page: p2 } = await signedIn(browser, server.url, dan().token, PHONE);
    try {
      await p2.goto(`${server.url}/c/cnv_9f2a`);
      await p2.getByRole("textbox", { name: "Message" }).waitFor();
      await send(p2, "Can you schedule a 45-min call with Maria next week?");
      const details = p2.locator("article[data-card-id] .card-details").last();
      await details.waitFor({ timeout: 15_000 });
      await details.focus();
      await p2.keyboard.press("Enter");
      const drawer = p2.locator("aside.drawer");
      await drawer.waitFor();
      expect(await drawer.getAttribute("aria-modal")).toBe("true");
      for (let i = 0; i < 30; i++) {
        await p2.keyboard.press("Tab");
        expect(await focusInside(p2, "aside.drawer"), `Tab ${i + 1} left the sheet: ${await focused(p2)}`).toBe(true);
      }
      await p2.keyboard.press("Escape");
      await drawer.waitFor({ state: "detached" });
      const back = await focused(p2);
      expect(back).not.toBe("body");
      expect(back).toMatch(/\|job\./);
    } finally {
      await c2.close();
    }
  });
});

describe("shortcuts", () => {
  test("Ctrl+K goes to a conversation by part of its name; ↑ in an empty box edits my last message; ? lists the keys; axe finds nothing", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    try {
      await page.goto(`${server.url}/c/${server.demo!.conversation_id}`);
      const box = page.getByRole("textbox", { name: "Message" });
      await box.waitFor();

      // From inside the message box too: the switcher opens with its box focused.
      await box.focus();
      await page.keyboard.press("Control+k");
      const dialog = page.getByRole("dialog", { name: "Go to a conversation" });
      await dialog.waitFor();
      const name = dialog.getByRole("combobox", { name: "Conversation name" });
      expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await seriousAxe(page, ".modal")).toEqual([]);
      await page.keyboard.type("ÁN");
      await expect.poll(() => dialog.getByRole("option").allTextContents()).toEqual(["Ana"]);
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/c\/cnv_dan_ana$/);
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => focused(page)).toMatch(/^textarea\|/);

      // Escape closes it where it was.
      await page.keyboard.press("Control+k");
      await dialog.waitFor();
      await page.keyboard.type("zzz");
      await dialog.getByText("No conversation has that name.").waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      expect(page.url()).toMatch(/\/c\/cnv_dan_ana$/);

      // ↑ in the empty box: my last message, in edit mode; Enter saves it for everyone. The words
      // are this attempt's own, so a retry does not find the first attempt's message.
      const ten = `See you at ten (${randomUUID().slice(0, 8)})`;
      await send(page, ten);
      await page.locator(".timeline .msg-out .text", { hasText: ten }).waitFor();
      await box.focus();
      await page.keyboard.press("ArrowUp");
      await expect.poll(() => box.inputValue()).toBe(ten);
      await expect.poll(() => page.locator(".compose-mode-text").textContent()).toContain("Editing");
      const eleven = ten.replace("ten", "eleven");
      await box.fill(eleven);
      await page.keyboard.press("Enter");
      await expect
        .poll(async () => {
          const r = await fetch(`${server.url}/v1/conversations/cnv_dan_ana/timeline`, {
            headers: { authorization: `Bearer ${dan().token}` },
          });
          return ((await r.json()).items as Array<{ message: { body_text?: string } }>)
            .map((i) => i.message.body_text)
            .filter((t) => t === ten || t === eleven);
        })
        .toEqual([eleven]);
      // ↑ with text in the box is the caret's, not an edit.
      await box.fill("draft");
      await page.keyboard.press("ArrowUp");
      await page.locator(".compose-mode-text").waitFor({ state: "detached" });
      await box.fill("");

      // ? outside a text box lists the shortcuts; inside one it is a question mark.
      await box.press("Shift+?");
      await expect.poll(() => box.inputValue()).toBe("?");
      await box.fill("");
      await page
        .locator(".chat-header, header")
        .first()
        .click({ position: { x: 2, y: 2 } });
      await page.keyboard.press("Shift+?");
      const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await sheet.waitFor();
      expect(await sheet.locator("dt").allTextContents()).toContain("Ctrl + K");
      expect(await seriousAxe(page, ".modal")).toEqual([]);
      await page.keyboard.press("Escape");
      await sheet.waitFor({ state: "detached" });
    } finally {
      await ctx.close();
    }
  });
});
