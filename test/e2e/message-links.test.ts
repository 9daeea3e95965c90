import { AxeBuilder } from "@axe-core/playwright";
import { rmSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, send, signedIn, textOf } from "./harness.js";

/**
 * Copy link, Forward and Pin between Dan and Ana, each in their own browser: a link opens the
 * chat at the message for a member and a plain "not found" for anyone else (never the text); a
 * forward arrives live marked with its author; pins are shared live; all of it the same after a
 * reload and after a server restart. Reached by keyboard where it matters; axe finds nothing
 * serious or critical in the new states.
 */
let server: TestServer;
let browser: Browser;
let dataDir: string;
const DM = "cnv_dan_ana";
const AGENT_CHAT = "cnv_9f2a";
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

const open = async (page: Page, cid: string) => {
  await page.locator(`.conv-row[data-conversation-id="${cid}"]`).click();
  await expect.poll(() => page.url()).toContain(`/c/${cid}`);
};
/** The timeline item of the message whose bubble shows `text`. */
const item = (page: Page, text: string) =>
  page.locator(".timeline .item", { has: page.locator(".text", { hasText: text }) }).last();
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

const SECRET = "Quarterly numbers: 4.2M, keep it in this room";

describe("copy link, forward and pin, live between two people", () => {
  test("a link opens for members only; a forward names its author; pins are shared; the same after reload and restart", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    const a = await signedIn(browser, server.url, ana().token);
    let link = "";
    try {
      // Dan, in his chat with the agent (Ana is not in it), copies a link to his message.
      await open(d.page, AGENT_CHAT);
      await send(d.page, SECRET);
      const mine = item(d.page, SECRET);
      await mine.waitFor();
      await mine.getByRole("button", { name: "Copy link" }).focus();
      await d.page.keyboard.press("Enter");
      await expect.poll(() => textOf(d.page.locator(".toast"))).toContain("Link copied");
      link = await d.page.evaluate(() => navigator.clipboard.readText());
      expect(link).toMatch(new RegExp(`^${server.url}/c/${AGENT_CHAT}/m/msg_[A-Za-z0-9_-]+$`));

      // Ana follows it: "not found", and nothing of the message reaches her page.
      await a.page.goto(link);
      await expect.poll(() => textOf(a.page.locator(".link-gone h1"))).toBe("Message not found");
      await expect.poll(() => a.page.evaluate(() => document.activeElement?.id)).toBe("link-gone-title");
      expect(await a.page.locator("body").textContent()).not.toContain("Quarterly");
      await noSeriousAxe(a.page, ".link-gone");
      // When the server cannot be asked, the page says so (not "not found") and offers to try again.
      await a.page.route("**/v1/conversations/*/messages/*", (r) => r.abort());
      await a.page.reload();
      await expect.poll(() => textOf(a.page.locator(".link-gone h1"))).toBe("Could not open the message");
      await a.page.unroute("**/v1/conversations/*/messages/*");
      await a.page.getByRole("button", { name: "Try again" }).click();
      await expect.poll(() => textOf(a.page.locator(".link-gone h1"))).toBe("Message not found");

      // Dan follows it from elsewhere: the chat opens at the message, highlighted.
      await open(d.page, DM);
      await d.page.goto(link);
      await expect.poll(() => d.page.url()).toBe(`${server.url}/c/${AGENT_CHAT}`);
      await expect.poll(() => item(d.page, SECRET).getAttribute("class")).toContain("item-found");

      // Dan forwards it to his chat with Ana; she, in that chat, sees it arrive marked with its author.
      await a.page.goto(`${server.url}/c/${DM}`);
      await a.page.locator(".composer").waitFor();
      await item(d.page, SECRET).getByRole("button", { name: "Forward…" }).click();
      const dialog = d.page.getByRole("dialog", { name: "Forward to…" });
      await dialog.waitFor();
      await noSeriousAxe(d.page, "dialog");
      await dialog.locator(`.forward-target[data-conversation-id="${DM}"]`).click();
      await expect.poll(() => dialog.count()).toBe(0);
      const copy = item(a.page, SECRET);
      await copy.waitFor();
      await expect.poll(() => textOf(copy.locator(".forwarded-mark"))).toBe("Forwarded from Dan");

      // Ana pins it, by keyboard; Dan, in the same chat, sees the pin and the header's list live.
      await open(d.page, DM);
      await send(a.page, "Standup moves to 9:30");
      await item(d.page, "Standup moves to 9:30").waitFor();
      await copy.getByRole("button", { name: "Pin", exact: true }).focus();
      await a.page.keyboard.press("Enter");
      await expect.poll(() => textOf(d.page.locator(".pins-btn"))).toContain("Pinned (1)");
      await expect.poll(() => item(d.page, SECRET).locator(".pinned-mark").getAttribute("title")).toBe("Pinned by Ana");
      await item(d.page, "Standup moves to 9:30").getByRole("button", { name: "Pin", exact: true }).click();
      await expect.poll(() => textOf(a.page.locator(".pins-btn"))).toContain("Pinned (2)");
      // Dan's list, in pin order; he unpins the first from it, and Ana's count follows.
      await d.page.locator(".pins-btn").click();
      const pins = d.page.getByRole("dialog", { name: "Pinned messages" });
      await pins.waitFor();
      await expect.poll(() => pins.locator(".pin-text").allTextContents()).toEqual([SECRET, "Standup moves to 9:30"]);
      await noSeriousAxe(d.page, "dialog");
      await pins.locator(".pin-row").first().getByRole("button", { name: "Unpin" }).click();
      await expect.poll(() => textOf(a.page.locator(".pins-btn"))).toContain("Pinned (1)");
      await expect.poll(() => pins.locator(".pin-text").allTextContents()).toEqual(["Standup moves to 9:30"]);
      // Focus is not dropped with the row: it goes to the row now in its place.
      await expect.poll(() => d.page.evaluate(() => document.activeElement?.className)).toBe("pin-open");
      // A pinned message opens from the list.
      await pins.locator(".pin-open").first().click();
      await expect.poll(() => item(d.page, "Standup moves to 9:30").getAttribute("class")).toContain("item-found");
      await noSeriousAxe(d.page, ".chat-head", ".timeline");

      // A reload shows the same (from the server's projections).
      await a.page.reload();
      await expect.poll(() => textOf(a.page.locator(".pins-btn"))).toContain("Pinned (1)");
      await expect.poll(() => textOf(item(a.page, SECRET).locator(".forwarded-mark"))).toBe("Forwarded from Dan");
      expect(await item(a.page, SECRET).locator(".pinned-mark").count()).toBe(0);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }

    // A restart rebuilds everything from the ledger: the pin, the forward, the link and who may follow it.
    await server.close();
    server = await startTestServer({ keep: true, dataDir });
    const d2 = await signedIn(browser, server.url, dan().token);
    const a2 = await signedIn(browser, server.url, ana().token);
    try {
      const relinked = link.replace(/^http:\/\/[^/]+/, server.url);
      await a2.page.goto(`${server.url}/c/${DM}`);
      await expect.poll(() => textOf(a2.page.locator(".pins-btn"))).toContain("Pinned (1)");
      await expect
        .poll(() => item(a2.page, "Standup moves to 9:30").locator(".pinned-mark").getAttribute("title"))
        .toBe("Pinned by Dan");
      await expect.poll(() => textOf(item(a2.page, SECRET).locator(".forwarded-mark"))).toBe("Forwarded from Dan");
      await a2.page.goto(relinked);
      await expect.poll(() => textOf(a2.page.locator(".link-gone h1"))).toBe("Message not found");
      await d2.page.goto(relinked);
      await expect.poll(() => item(d2.page, SECRET).getAttribute("class")).toContain("item-found");
    } finally {
      await d2.ctx.close();
      await a2.ctx.close();
    }
  }, 120_000);

  test("signed out, a message link shows the sign-in page; signing in from a link then opens the chat at that message", async () => {
    const posted = await fetch(`${server.url}/v1/conversations/${DM}/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ana().token}`,
        "content-type": "application/json",
        "idempotency-key": `k-back-${Date.now()}`,
      },
      body: JSON.stringify({ kind: "text", body_text: "The boiler is fixed" }),
    }).then((r) => r.json());
    const link = `${server.url}/c/${DM}/m/${posted.message_id}`;
    const ctx = await browser.newContext();
    try {
      const page = await ctx.newPage();
      await page.goto(link);
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.locator(".sidebar").count()).toBe(0);
      expect(await page.locator("body").textContent()).not.toContain("boiler");
      // A sign-in link (as from an email) lands on the list; the page goes on to the message.
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan().token)}`);
      await expect.poll(() => page.url()).toBe(`${server.url}/c/${DM}`);
      await expect.poll(() => item(page, "The boiler is fixed").getAttribute("class")).toContain("item-found");
      // Once: a later visit to the list stays on the list.
      expect(await page.evaluate(() => localStorage.getItem("logline.return_to"))).toBeNull();
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
