import { AxeBuilder } from "@axe-core/playwright";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, send, shot, signedIn, textOf } from "./harness.js";

/**
 * A link preview in two browsers: Dan sends a link to a page on this machine (allowed for the
 * test); the preview card (site, title, description as plain text, no picture) appears under his
 * message for him and for Ana live, the same after a reload; only Dan has the × and taking it off
 * removes it from both pages.
 */
let server: TestServer;
let browser: Browser;
let pages: Server;
let base = "";
const DM = "cnv_dan_ana";
const TITLE = 'Roadmap <img src=x onerror="document.title=1">';

beforeAll(async () => {
  pages = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<html><head><title>fallback</title>
      <meta property="og:title" content="${TITLE.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;")}">
      <meta property="og:description" content="The plan for the next two quarters.">
      <meta property="og:site_name" content="Acme Wiki"></head><body></body></html>`);
  });
  await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  [server, browser] = await Promise.all([
    startTestServer({ linkPreviews: { enabled: true, allowCidrs: ["127.0.0.1/32"] } }),
    launchBrowser(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((r) => pages?.close(r));
});

const open = async (page: Page, cid: string) => {
  await page.locator(`.conv-row[data-conversation-id="${cid}"]`).click();
  await expect.poll(() => page.url()).toContain(`/c/${cid}`);
};
const preview = (page: Page, url: string) => page.locator(`.link-preview[data-preview-url="${url}"]`);

describe("link previews", () => {
  test("the card shows under the message for both people, and its author takes it off for both", async () => {
    const d = await signedIn(browser, server.url, demoPerson(server, "Dan").token);
    const a = await signedIn(browser, server.url, demoPerson(server, "Ana").token);
    const url = `${base}/roadmap`;
    try {
      await open(d.page, DM);
      await open(a.page, DM);
      await send(d.page, `Have a look: ${url}`);
      const mine = preview(d.page, url);
      const hers = preview(a.page, url);
      await mine.waitFor();
      await hers.waitFor();
      // Plain text: the page's markup is shown as words, never run.
      expect(await textOf(hers.locator(".link-preview-title"))).toBe(TITLE);
      expect(await hers.locator("img").count()).toBe(0);
      expect(await a.page.title()).not.toBe("1");
      expect(await textOf(hers.locator(".link-preview-site"))).toBe("Acme Wiki");
      expect(await textOf(hers.locator(".link-preview-description"))).toBe("The plan for the next two quarters.");
      expect(await hers.locator(".link-preview-title").getAttribute("href")).toBe(url);
      expect(await hers.locator(".link-preview-title").getAttribute("rel")).toContain("noopener");
      // Only the author may take it off.
      expect(await hers.getByRole("button").count()).toBe(0);
      const r = await new AxeBuilder({ page: d.page }).include(".link-preview").analyze();
      expect(r.violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => v.id)).toEqual(
        [],
      );

      await shot(d.page, "link-preview");
      await a.page.reload();
      await preview(a.page, url).waitFor();

      await mine.getByRole("button", { name: `Remove the preview of “${TITLE}”` }).click();
      await mine.waitFor({ state: "detached" });
      await preview(a.page, url).waitFor({ state: "detached" });
      await a.page.reload();
      await a.page.locator(".timeline .item .text", { hasText: "Have a look" }).last().waitFor();
      expect(await preview(a.page, url).count()).toBe(0);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }
  });
  test("an edit that adds a link brings its card to both people; an edit that takes it out takes the card", async () => {
    const d = await signedIn(browser, server.url, demoPerson(server, "Dan").token);
    const a = await signedIn(browser, server.url, demoPerson(server, "Ana").token);
    const url = `${base}/minutes`;
    const item = (page: Page, text: string) =>
      page.locator(".timeline .item", { has: page.locator(".text", { hasText: text }) }).last();
    const box = d.page.getByRole("textbox", { name: "Message" });
    try {
      await open(d.page, DM);
      await open(a.page, DM);
      await send(d.page, "Minutes are in the wiki");
      await item(a.page, "Minutes are in the wiki").waitFor();
      expect(await preview(a.page, url).count()).toBe(0);

      // Dan edits the link in: the card comes under his message, for him and live for Ana.
      await item(d.page, "Minutes are in the wiki").getByRole("button", { name: "Edit" }).click();
      await box.fill(`Minutes are in the wiki: ${url}`);
      await box.press("Enter");
      await preview(d.page, url).waitFor();
      await preview(a.page, url).waitFor();
      expect(await textOf(item(a.page, "Minutes are in the wiki").locator(".link-preview-site"))).toBe("Acme Wiki");
      await a.page.reload();
      await preview(a.page, url).waitFor();

      // He edits it out again: the card goes for both, and stays gone after a reload.
      await item(d.page, "Minutes are in the wiki").getByRole("button", { name: "Edit" }).click();
      await box.fill("Minutes are in the wiki (ask me for the link)");
      await box.press("Enter");
      await preview(d.page, url).waitFor({ state: "detached" });
      await preview(a.page, url).waitFor({ state: "detached" });
      await a.page.reload();
      await item(a.page, "ask me for the link").waitFor();
      expect(await preview(a.page, url).count()).toBe(0);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }
  });
});
