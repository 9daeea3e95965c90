import { AxeBuilder } from "@axe-core/playwright";
import { rmSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, PHONE, send, signedIn, textOf } from "./harness.js";

/**
 * Threads between Dan and Ana, each in their own browser: Dan replies in the thread of Ana's
 * message, Ana sees the root's count (and that it is new to her) go up live without the reply in
 * her timeline, opens the thread and answers there; Dan sees it live in his open thread. All by
 * keyboard; the same after a reload and a server restart (including Dan's choice to stop
 * following); on a phone the thread covers the chat. axe finds nothing serious or critical.
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

/** The timeline item of the message whose bubble shows `text`. */
const item = (page: Page, text: string) =>
  page.locator(".timeline .item", { has: page.locator(".text", { hasText: text }) }).last();
const panel = (page: Page) => page.locator(".thread-panel");
const focused = (page: Page) => page.evaluate(() => document.activeElement?.className ?? "");
async function noSeriousAxe(page: Page, ...include: string[]) {
  let b = new AxeBuilder({ page });
  for (const sel of include) b = b.include(sel);
  const r = await b.analyze();
  expect(
    r.violations
      .filter((v) => v.impact === "critical" || v.impact === "serious")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

const ROOT = "Where do we meet for the client visit?";
const DAN_REPLY = "Lobby of their office, 9:45";
const ANA_REPLY = "Perfect, I will bring the badges";

describe("threads, live between two people", () => {
  test("a reply in a thread counts under the root live, opens beside the chat, and is the same after reload and restart", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    try {
      await a.page.goto(`${server.url}/c/${DM}`);
      await send(a.page, ROOT);
      await d.page.goto(`${server.url}/c/${DM}`);
      const root = item(d.page, ROOT);
      await root.waitFor();
      // This server has no Jitsi Meet server configured: no Start a call to offer.
      expect(await d.page.locator(".call-btn").count()).toBe(0);

      // Dan answers in the thread, by keyboard: the panel opens beside the chat with the caret in its composer.
      await root.getByRole("button", { name: "Reply in thread" }).focus();
      await d.page.keyboard.press("Enter");
      await panel(d.page).waitFor();
      await expect.poll(() => d.page.url()).toMatch(new RegExp(`/c/${DM}/t/msg_`));
      await expect.poll(() => textOf(panel(d.page).locator(".thread-root .text"))).toBe(ROOT);
      await expect.poll(() => focused(d.page)).toBe("thread-input");
      await d.page.keyboard.type(DAN_REPLY);
      await d.page.keyboard.press("Enter");
      await expect.poll(() => panel(d.page).locator(".thread-reply .text").allTextContents()).toEqual([DAN_REPLY]);
      // Beside, not over: the chat's timeline is still on screen to its left.
      const chatBox = (await d.page.locator(".timeline").boundingBox())!;
      const panelBox = (await panel(d.page).boundingBox())!;
      expect(chatBox.x + chatBox.width).toBeLessThanOrEqual(panelBox.x + 1);
      await noSeriousAxe(d.page, ".thread-panel");

      // Ana, in the chat, sees the count go up live (new to her: she wrote the root), not the reply itself.
      const summary = item(a.page, ROOT).locator(".thread-summary");
      await expect.poll(() => textOf(summary.locator(".thread-count-text"))).toBe("1 reply");
      await expect.poll(() => textOf(summary.locator(".thread-unread"))).toBe("1 new");
      expect(await a.page.locator(".timeline .text", { hasText: DAN_REPLY }).count()).toBe(0);
      await noSeriousAxe(a.page, ".timeline");

      // She opens it by keyboard, reads it (no longer new), and replies in it.
      await summary.focus();
      await a.page.keyboard.press("Enter");
      await expect.poll(() => panel(a.page).locator(".thread-reply .text").allTextContents()).toEqual([DAN_REPLY]);
      await expect.poll(() => summary.locator(".thread-unread").count()).toBe(0);
      await expect.poll(() => focused(a.page)).toBe("thread-input");
      await a.page.keyboard.type(ANA_REPLY);
      await a.page.keyboard.press("Enter");
      // Dan's open thread shows it live; his timeline does not.
      await expect
        .poll(() => panel(d.page).locator(".thread-reply .text").allTextContents())
        .toEqual([DAN_REPLY, ANA_REPLY]);
      await expect.poll(() => textOf(item(d.page, ROOT).locator(".thread-count-text"))).toBe("2 replies");
      expect(await d.page.locator(".timeline .text", { hasText: ANA_REPLY }).count()).toBe(0);

      // Dan stops following (he replied, so he followed); the button says so.
      const follow = panel(d.page).locator(".thread-follow");
      await expect.poll(() => follow.getAttribute("aria-pressed")).toBe("true");
      await follow.focus();
      await d.page.keyboard.press("Enter");
      await expect.poll(() => follow.getAttribute("aria-pressed")).toBe("false");
      await expect.poll(() => textOf(follow)).toBe("Follow");

      // Escape closes Ana's thread and gives focus back to the root's replies button.
      await a.page.locator(".thread-input").focus();
      await a.page.keyboard.press("Escape");
      await expect.poll(() => panel(a.page).count()).toBe(0);
      await expect.poll(() => a.page.url()).toBe(`${server.url}/c/${DM}`);
      await expect.poll(() => focused(a.page)).toBe("thread-summary");

      // A reload says the same: two replies, nothing new for Ana, the thread open again from Dan's address.
      await a.page.reload();
      await expect.poll(() => textOf(item(a.page, ROOT).locator(".thread-count-text"))).toBe("2 replies");
      expect(await item(a.page, ROOT).locator(".thread-unread").count()).toBe(0);
      await d.page.reload();
      await expect
        .poll(() => panel(d.page).locator(".thread-reply .text").allTextContents())
        .toEqual([DAN_REPLY, ANA_REPLY]);
      await expect.poll(() => panel(d.page).locator(".thread-follow").getAttribute("aria-pressed")).toBe("false");
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }

    // A restart rebuilds it from the ledger: the count, the replies, and each one's follow state.
    await server.close();
    server = await startTestServer({ keep: true, dataDir });
    const d2 = await signedIn(browser, server.url, dan().token);
    const a2 = await signedIn(browser, server.url, ana().token, PHONE);
    try {
      await d2.page.goto(`${server.url}/c/${DM}`);
      await expect.poll(() => textOf(item(d2.page, ROOT).locator(".thread-count-text"))).toBe("2 replies");
      await item(d2.page, ROOT).locator(".thread-summary").click();
      await expect.poll(() => panel(d2.page).locator(".thread-follow").getAttribute("aria-pressed")).toBe("false");
      // On a phone the thread covers the whole screen; Ana still follows it.
      await a2.page.goto(`${server.url}/c/${DM}`);
      await item(a2.page, ROOT).locator(".thread-summary").click();
      await expect
        .poll(() => panel(a2.page).locator(".thread-reply .text").allTextContents())
        .toEqual([DAN_REPLY, ANA_REPLY]);
      const box = (await panel(a2.page).boundingBox())!;
      expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, PHONE.width, PHONE.height]);
      await expect.poll(() => panel(a2.page).locator(".thread-follow").getAttribute("aria-pressed")).toBe("true");
      await noSeriousAxe(a2.page, ".thread-panel");
    } finally {
      await d2.ctx.close();
      await a2.ctx.close();
    }
  }, 120_000);
  test("a reply is edited, reacted to and deleted inside the thread panel, live for the other, after a reload and a restart", async () => {
    const Q = "Who takes the minutes on Monday?";
    const FIRST = "I can take them";
    const EDITED = "I can take them and send them out";
    const WRONG = "Wrong thread, sorry";
    const reply = (page: Page, text: string) =>
      panel(page).locator(".thread-reply", { has: page.locator(".text", { hasText: text }) });
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    try {
      await a.page.goto(`${server.url}/c/${DM}`);
      await send(a.page, Q);
      await d.page.goto(`${server.url}/c/${DM}`);
      await item(d.page, Q).getByRole("button", { name: "Reply in thread" }).click();
      await panel(d.page).locator(".thread-input").fill(FIRST);
      await panel(d.page).locator(".thread-input").press("Enter");
      await reply(d.page, FIRST).waitFor();
      await item(a.page, Q).locator(".thread-summary").click();
      await reply(a.page, FIRST).waitFor();
      // Ana may react to Dan's reply, not edit or delete it.
      expect(await reply(a.page, FIRST).getByRole("button", { name: "Edit" }).count()).toBe(0);
      expect(await reply(a.page, FIRST).getByRole("button", { name: "Delete" }).count()).toBe(0);

      // Dan edits his reply in the panel's own composer; Ana's open panel shows the new words, marked edited.
      await reply(d.page, FIRST).getByRole("button", { name: "Edit" }).click();
      await expect.poll(() => textOf(panel(d.page).locator(".compose-mode"))).toContain("Editing your message");
      await expect.poll(() => panel(d.page).locator(".thread-input").inputValue()).toBe(FIRST);
      await panel(d.page).locator(".thread-input").fill(EDITED);
      await panel(d.page).locator(".thread-input").press("Enter");
      await expect.poll(() => panel(d.page).locator(".compose-mode").count()).toBe(0);
      await expect.poll(() => textOf(reply(a.page, EDITED).locator(".edited-mark"))).toBe("edited");
      expect(await panel(a.page).locator(".thread-reply").count()).toBe(1);

      // Ana reacts from the reply's picker; Dan sees her reaction live.
      await reply(a.page, EDITED).getByRole("button", { name: "React" }).click();
      await reply(a.page, EDITED).getByRole("button", { name: "React with 🎉" }).click();
      await expect
        .poll(() => reply(d.page, EDITED).locator(".reaction-chip").getAttribute("aria-label"))
        .toBe("🎉 1: Ana");

      // Dan sends a reply by mistake and deletes it (confirming): Ana sees its place, and the count drops.
      await panel(d.page).locator(".thread-input").fill(WRONG);
      await panel(d.page).locator(".thread-input").press("Enter");
      await reply(a.page, WRONG).waitFor();
      await expect.poll(() => textOf(item(a.page, Q).locator(".thread-count-text"))).toBe("2 replies");
      await reply(d.page, WRONG).getByRole("button", { name: "Delete" }).click();
      await d.page.getByRole("button", { name: "Delete", exact: true }).last().click();
      await expect.poll(() => panel(a.page).locator(".thread-reply .deleted-text").count()).toBe(1);
      await expect.poll(() => textOf(item(a.page, Q).locator(".thread-count-text"))).toBe("1 reply");
      expect(await panel(a.page).textContent()).not.toContain(WRONG);
      await noSeriousAxe(a.page, ".thread-panel");
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }

    /** What Ana's panel says of the thread, from the server's projections. */
    const seen = async (page: Page) => {
      await page.goto(`${server.url}/c/${DM}`);
      await item(page, Q).locator(".thread-summary").click();
      await reply(page, EDITED).waitFor();
      return {
        count: await textOf(item(page, Q).locator(".thread-count-text")),
        texts: await panel(page).locator(".thread-reply .text").allTextContents(),
        edited: await reply(page, EDITED).locator(".edited-mark").count(),
        reaction: await reply(page, EDITED).locator(".reaction-chip").getAttribute("aria-label"),
      };
    };
    const want = {
      count: "1 reply",
      texts: [EDITED, "Message deleted"],
      edited: 1,
      reaction: "🎉 1: Ana (press to remove yours)",
    };
    const a2 = await signedIn(browser, server.url, ana().token);
    try {
      expect(await seen(a2.page)).toEqual(want);
    } finally {
      await a2.ctx.close();
    }
    await server.close();
    server = await startTestServer({ keep: true, dataDir });
    const a3 = await signedIn(browser, server.url, ana().token);
    try {
      expect(await seen(a3.page)).toEqual(want);
    } finally {
      await a3.ctx.close();
    }
  }, 120_000);
});
