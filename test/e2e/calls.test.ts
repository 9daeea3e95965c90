import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, signedIn, textOf } from "./harness.js";

/**
 * Start a call between Dan and Ana, each in their own browser, on a server with a Jitsi Meet
 * server configured: Dan presses Start a call (by keyboard), and both see the call in the chat
 * with Join the call opening the room the server named on that Jitsi server (a new tab). No
 * Jitsi server runs here: the test checks the link the page offers, not the meeting.
 */
const JITSI = "https://meet.example.test";
const DM = "cnv_dan_ana";
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startTestServer({ connectors: { jitsiBaseUrl: JITSI, calls: true } }),
    launchBrowser(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const callItem = (page: Page) => page.locator(".timeline .item", { has: page.locator(".call-join") }).last();

describe("start a call", () => {
  test("Start a call posts a room on the configured Jitsi server that the other person can join", async () => {
    const d = await signedIn(browser, server.url, demoPerson(server, "Dan").token);
    const a = await signedIn(browser, server.url, demoPerson(server, "Ana").token);
    try {
      await a.page.goto(`${server.url}/c/${DM}`);
      await d.page.goto(`${server.url}/c/${DM}`);
      const start = d.page.getByRole("button", { name: "Start a call" });
      await start.focus();
      await d.page.keyboard.press("Enter");
      await expect.poll(() => textOf(d.page.locator(".toast"))).toContain("Call started");
      await expect.poll(() => textOf(callItem(d.page).locator(".call-text"))).toBe("You started a call");

      const join = callItem(a.page).getByRole("link", { name: "Join the call" });
      await join.waitFor();
      await expect.poll(() => textOf(callItem(a.page).locator(".call-text"))).toBe("Dan started a call");
      const href = await join.getAttribute("href");
      expect(href).toMatch(/^https:\/\/meet\.example\.test\/LogLine-[a-z]{4}-[a-z]{6}-[a-z]{14}$/);
      expect(await callItem(d.page).locator(".call-join").getAttribute("href")).toBe(href);
      expect(await join.getAttribute("target")).toBe("_blank");
      expect(await join.getAttribute("rel")).toBe("noopener noreferrer");
      const r = await new AxeBuilder({ page: a.page }).include(".chat-head").include(".timeline").analyze();
      expect(r.violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => v.id)).toEqual(
        [],
      );

      // A reload shows the same call.
      await a.page.reload();
      await expect.poll(() => callItem(a.page).locator(".call-join").getAttribute("href")).toBe(href);
    } finally {
      await d.ctx.close();
      await a.ctx.close();
    }
  }, 90_000);
});
