import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { getJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { DESKTOP, launchBrowser, PHONE, signedIn, seriousAxe } from "./harness.js";

/**
 * Signing in on another device in the browser: Dan makes a one-time link (and QR code) in his
 * profile, a second browser opens it and is Dan with Dan's conversations; the same link in a
 * third browser is refused; the second browser signs out back to the sign-in page, and its
 * session is gone; a session Dan ends from the laptop sends that browser to the sign-in page.
 */
let server: TestServer;
let browser: Browser;
const dan = () => demoPerson(server, "Dan");

// A server of its own for each attempt: the test uses up links and ends sessions, and a retry
// must count sessions from the demo workspace again, not from what the first attempt left.
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
beforeEach(async () => {
  server = await startTestServer();
}, 60_000);
afterEach(async () => {
  await server?.close();
});
afterAll(async () => {
  await browser?.close();
});

const conversationIds = (page: Page) =>
  page
    .locator("[data-conversation-id]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-conversation-id")).sort());

describe("sign in on another device", () => {
  test("a one-time link signs Dan in on a second browser once, with his conversations; then that browser signs out", async () => {
    const { ctx: laptop, page } = await signedIn(browser, server.url, dan().token);
    const phone = await browser.newContext({ viewport: PHONE });
    const third = await browser.newContext({ viewport: DESKTOP });
    try {
      await page.getByRole("button", { name: "Your profile" }).click();
      await page.getByRole("button", { name: "Sign in on another device" }).click();
      const qr = page.getByRole("img", { name: "QR code of your one-time sign-in link" });
      await qr.waitFor();
      expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
      const url = await page.getByLabel("One-time link").inputValue();
      expect(url).toMatch(new RegExp(`^${server.url}/signin/link#lnk_[A-Za-z0-9_-]{43}$`));
      await expect.poll(() => page.getByRole("status").filter({ hasText: "Works once" }).count()).toBe(1);
      expect(await seriousAxe(page, ".modal")).toEqual([]);
      const laptopConversations = await conversationIds(page);
      expect(laptopConversations.length).toBeGreaterThan(1);

      // The phone opens the link: nothing happens until the person confirms.
      const p2 = await phone.newPage();
      p2.on("pageerror", (e) => console.error("pageerror:", e.message));
      await p2.goto(url);
      await p2.getByRole("heading", { name: "Sign in on this device" }).waitFor();
      expect(p2.url()).toBe(`${server.url}/signin/link`);
      expect(await seriousAxe(p2, ".auth")).toEqual([]);
      await p2.getByRole("button", { name: "Sign in" }).click();
      await p2.locator(".sidebar").waitFor();
      await expect.poll(() => conversationIds(p2)).toEqual(laptopConversations);
      await p2.getByRole("button", { name: "Your profile" }).click();
      const modal = p2.locator(".modal");
      await expect.poll(() => modal.textContent()).toContain("Dan");
      await expect.poll(() => modal.getByRole("listitem").count()).toBeGreaterThan(1);
      const mine = modal.getByRole("listitem").filter({ hasText: "This device" });
      expect(await mine.count()).toBe(1);
      expect(await mine.textContent()).toContain("link from another device");
      expect(await seriousAxe(p2, ".modal")).toEqual([]);

      // The same link in a third browser is refused and signs nobody in.
      const p3 = await third.newPage();
      await p3.goto(url);
      await p3.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => p3.getByRole("alert").textContent()).toContain("already used");
      expect(await p3.evaluate(() => fetch("/v1/session").then((r) => r.status))).toBe(401);

      // The phone signs out: back to the sign-in page, and its session no longer works.
      const before = (await getJson(`${server.url}/v1/sessions`, dan().token)).body.sessions.length;
      await modal.getByRole("button", { name: "Sign out" }).click();
      await p2.getByLabel("Sign-in token or link").waitFor();
      expect(new URL(p2.url()).pathname).toBe("/signin");
      expect(await p2.locator("[data-conversation-id]").count()).toBe(0);
      expect(await p2.evaluate(() => fetch("/v1/session").then((r) => r.status))).toBe(401);
      expect((await getJson(`${server.url}/v1/sessions`, dan().token)).body.sessions.length).toBe(before - 1);
      expect(await seriousAxe(p2, ".auth")).toEqual([]);

      // Ending a session from another device sends that page back to the sign-in page.
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("button", { name: "Sign in on another device" }).click();
      const again = await page.getByLabel("One-time link").inputValue();
      await p3.goto(again);
      await p3.getByRole("button", { name: "Sign in" }).click();
      await p3.locator(".sidebar").waitFor();
      await page.getByRole("button", { name: "Done" }).click();
      const other = page.locator(".modal").getByRole("listitem").filter({ hasText: "link from another device" });
      await expect.poll(() => other.count()).toBe(1);
      await other.getByRole("button", { name: /^End the session on / }).click();
      await p3.getByLabel("Sign-in token or link").waitFor({ timeout: 10_000 });
      expect(await p3.evaluate(() => fetch("/v1/session").then((r) => r.status))).toBe(401);
    } finally {
      await Promise.all([laptop.close(), phone.close(), third.close()]);
    }
  });
});
