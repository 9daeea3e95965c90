import { AxeBuilder } from "@axe-core/playwright";
import { rmSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, send, signedIn, textOf } from "./harness.js";

/**
 * Public channels between Ana and Dan, each in their own browser: Ana starts a public channel from New group; Dan finds it in Browse
 * channels (not in it yet, one member), joins it, and both see each other's messages live; after
 * a server restart the channel, its members and its messages are the same and still live.
 */
let server: TestServer;
let browser: Browser;
let dataDir: string;
const ana = () => demoPerson(server, "Ana");
const dan = () => demoPerson(server, "Dan");
const CHANNEL = "launch-week";

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ keep: true }), launchBrowser()]);
  dataDir = server.dataDir;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The timeline's messages and system lines ("Dan joined"), in order. */
const bubbles = (page: Page) => page.locator(".timeline .item .text, .timeline .sys span").allTextContents();
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

describe("public channels, live between two people", () => {
  test("Ana creates a public channel; Dan finds it, joins, and both see each other's messages live, also after a restart", async () => {
    const a = await signedIn(browser, server.url, ana().token);
    const d = await signedIn(browser, server.url, dan().token);
    let cid = "";
    try {
      // Ana: New conversation → New group → a name, Public channel → Create channel (nobody picked).
      await a.page.getByRole("button", { name: "New conversation" }).click();
      await a.page.getByRole("button", { name: /New group/ }).click();
      await a.page.getByLabel("Group name").fill(CHANNEL);
      await a.page.getByRole("checkbox", { name: /Public channel/ }).check();
      await a.page.getByRole("button", { name: "Create channel" }).click();
      await expect.poll(() => textOf(a.page.locator(".chat-head h1"))).toBe(CHANNEL);
      await expect.poll(() => textOf(a.page.locator(".chat-head .channel-badge"))).toBe("Public channel");
      cid = decodeURIComponent(new URL(a.page.url()).pathname.split("/")[2]!);
      await send(a.page, "Kick-off notes go here");

      // Dan: Browse channels lists it with one member, not joined; he cannot see its messages yet.
      await d.page.getByRole("button", { name: "Browse channels" }).click();
      const row = d.page.locator(".channel-row", { hasText: CHANNEL });
      await expect.poll(() => textOf(row.locator(".person-sub"))).toBe("1 member");
      await noSeriousAxe(d.page, ".browse-channels");
      await row.getByRole("button", { name: `Join ${CHANNEL}` }).click();
      await d.page.waitForURL(new RegExp(`/c/${cid}$`));
      await expect.poll(() => bubbles(d.page)).toEqual(["Kick-off notes go here", "Dan joined"]);
      // Ana sees him join, live.
      await expect.poll(() => bubbles(a.page)).toContain("Dan joined");

      await send(d.page, "Count me in");
      await expect.poll(() => bubbles(a.page)).toContain("Count me in");
      await send(a.page, "Welcome!");
      await expect.poll(() => bubbles(d.page)).toContain("Welcome!");
    } finally {
      await a.ctx.close();
      await d.ctx.close();
    }

    // A restart rebuilds the channel from the ledger: both are in it, and it is live again.
    await server.close();
    server = await startTestServer({ keep: true, dataDir });
    const a2 = await signedIn(browser, server.url, ana().token);
    const d2 = await signedIn(browser, server.url, dan().token);
    try {
      await d2.page.getByRole("button", { name: "Browse channels" }).click();
      const row = d2.page.locator(".channel-row", { hasText: CHANNEL });
      await expect.poll(() => textOf(row.locator(".person-sub"))).toBe("2 members · You’re in it");
      await row.getByRole("button", { name: `Open ${CHANNEL}` }).click();
      await a2.page.goto(`${server.url}/c/${cid}`);
      const before = ["Kick-off notes go here", "Dan joined", "Count me in", "Welcome!"];
      await expect.poll(() => bubbles(d2.page)).toEqual(before);
      await expect.poll(() => bubbles(a2.page)).toEqual(before);
      await send(a2.page, "Still here after the restart");
      await expect.poll(() => bubbles(d2.page)).toContain("Still here after the restart");
    } finally {
      await a2.ctx.close();
      await d2.ctx.close();
    }
  });
});
