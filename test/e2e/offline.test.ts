import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { demoPerson, getJson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, send, signedIn, textOf } from "./harness.js";
import { type StreamProxy, startProxy } from "./live-proxy.js";

/**
 * The installed app without a network: Dan opens his chat with Ana, the browser goes offline, and
 * a reload still shows the app and the latest messages (from the service worker's caches: the
 * proxy in front of the server cuts every connection meanwhile). What he sends offline waits, and
 * goes once when the browser is back online: the server's timeline holds it exactly once. Chromium
 * finds the app installable. A new release (a changed file of the web app) replaces the cached shell whole. Signing out deletes
 * the reads kept for offline use.
 */
let server: TestServer;
let proxy: StreamProxy;
let browser: Browser;
let web = "";
const DM = "cnv_dan_ana";
const dan = () => demoPerson(server, "Dan");

beforeAll(async () => {
  // The server serves a copy of web/, so the test can make a new release of it.
  web = mkdtempSync(join(tmpdir(), "logline-web-"));
  cpSync(fileURLToPath(new URL("../../web", import.meta.url)), web, { recursive: true });
  [server, browser] = await Promise.all([
    startTestServer({ webDir: web }),
    launchBrowser([], { serviceWorkers: "allow" }),
  ]);
  proxy = await startProxy(server.url);
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
  rmSync(web, { recursive: true, force: true });
});

/** The page is controlled by the worker, which has cached one version of the shell. */
const workerReady = (page: Page) =>
  expect
    .poll(
      () =>
        page.evaluate(
          async () =>
            !!navigator.serviceWorker.controller &&
            (await caches.keys()).filter((k) => k.startsWith("logline-shell-")).length === 1,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);

const shellCaches = (page: Page) =>
  page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith("logline-shell-")));

/** How many items of the conversation's timeline on the server carry `text`. */
async function onServer(text: string): Promise<number> {
  const r = await getJson(`${server.url}/v1/conversations/${DM}/timeline?limit=500`, dan().token);
  return (r.body.items as Array<{ message?: { body_text?: string } }>).filter((i) => i.message?.body_text === text)
    .length;
}

describe("offline", () => {
  test("offline, the app opens with the latest messages; a message sent offline arrives once when back online", async () => {
    const { ctx, page } = await signedIn(browser, proxy.url, dan().token, undefined, { pollMs: 1000, retryMs: 200 });
    try {
      await page.locator(`[data-conversation-id="${DM}"]`).click();
      await expect.poll(() => page.url()).toContain(`/c/${DM}`);
      await workerReady(page);
      const lastText = `Seen before the train ${Date.now()}`;
      await send(page, lastText);
      await expect.poll(() => onServer(lastText)).toBe(1);
      // Once the worker controls the page, a reload reads through it and it keeps this chat.
      await page.reload();
      await expect.poll(() => textOf(page.locator(".timeline .item .text").last())).toBe(lastText);
      await expect
        .poll(() =>
          page.evaluate(
            async (cid) => !!(await (await caches.open("logline-data")).match(`/v1/conversations/${cid}/timeline`)),
            DM,
          ),
        )
        .toBe(true);

      // Offline: the page's network (setOffline does not reach the worker's fetches) and the worker's are both gone.
      await ctx.setOffline(true);
      proxy.setDown(true);
      await page.reload();
      await expect.poll(() => textOf(page.locator(".conn-offline").first())).toContain("Offline");
      await expect.poll(() => textOf(page.locator(".timeline .item .text").last())).toBe(lastText);
      expect(await textOf(page.locator(".offline-note"))).toContain("saved on this device");

      // Sent offline: the bubble waits, nothing reaches the server.
      const text = `Written on the train ${Date.now()}`;
      await send(page, text);
      const bubble = page.locator(".item-local", { hasText: text });
      await expect.poll(() => textOf(bubble.locator(".queued-note"))).toBe("Waiting for a connection");
      expect(await onServer(text)).toBe(0);

      // Back online: it goes, once, with the key it was first sent with.
      proxy.setDown(false);
      await ctx.setOffline(false);
      await expect.poll(() => onServer(text), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => page.locator(".conn-offline").count()).toBe(0);
      await expect
        .poll(() => page.locator(".timeline .item:not(.item-local) .text", { hasText: text }).count(), {
          timeout: 15_000,
        })
        .toBe(1);
      await expect.poll(() => page.locator(".item-local", { hasText: text }).count()).toBe(0);
      expect(await onServer(text)).toBe(1);

      // Signing out leaves nothing of Dan's for the next person on this device.
      await page.getByRole("button", { name: "Your profile" }).click();
      await page.locator(".modal").getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("Sign-in token or link").waitFor();
      expect(await page.evaluate(() => caches.has("logline-data"))).toBe(false);
      expect(await shellCaches(page)).toHaveLength(1);
    } finally {
      await ctx.close();
    }
  });

  test("a message queued offline survives closing the page: the next open sends it, once, when back online", async () => {
    const ana = () => demoPerson(server, "Ana").token;
    const onServerForAna = async (text: string) => {
      const r = await getJson(`${server.url}/v1/conversations/${DM}/timeline?limit=500`, ana());
      return (r.body.items as Array<{ message?: { body_text?: string } }>).filter((i) => i.message?.body_text === text)
        .length;
    };
    /** The texts waiting on this device (the page's IndexedDB outbox). */
    const keptOnDevice = (page: Page) =>
      page.evaluate(
        () =>
          new Promise<string[]>((resolve) => {
            const open = indexedDB.open("logline-outbox");
            open.onupgradeneeded = () => open.result.createObjectStore("sends");
            open.onsuccess = () => {
              const all = open.result.transaction("sends").objectStore("sends").getAll();
              all.onsuccess = () => {
                resolve((all.result as Array<{ text: string }>).map((o) => o.text));
                open.result.close();
              };
            };
          }),
      );
    const { ctx, page } = await signedIn(browser, proxy.url, ana(), undefined, { pollMs: 1000, retryMs: 200 });
    try {
      await page.goto(`${proxy.url}/c/${DM}`);
      await workerReady(page);
      const before = `Before the tunnel ${Date.now()}`;
      await send(page, before);
      await expect.poll(() => onServerForAna(before)).toBe(1);
      await page.reload();
      await expect.poll(() => textOf(page.locator(".timeline .item .text").last())).toBe(before);

      // Offline, Ana writes; the bubble waits, the text is kept on the device; she closes the page.
      await ctx.setOffline(true);
      proxy.setDown(true);
      const text = `Written in the tunnel ${Date.now()}`;
      await send(page, text);
      await expect
        .poll(() => textOf(page.locator(".item-local", { hasText: text }).locator(".queued-note")))
        .toBe("Waiting for a connection");
      await expect.poll(() => keptOnDevice(page)).toEqual([text]);
      await page.close();
      expect(await onServerForAna(text)).toBe(0);

      // Opened again, still offline: the app (from the worker) shows it waiting, and sends nothing yet.
      const again = await ctx.newPage();
      await again.goto(`${proxy.url}/c/${DM}`);
      await expect
        .poll(() => textOf(again.locator(".item-local", { hasText: text }).locator(".queued-note")))
        .toBe("Waiting for a connection");
      expect(await onServerForAna(text)).toBe(0);

      // Back online: it goes once, with the key it was first sent with, and leaves the device.
      proxy.setDown(false);
      await ctx.setOffline(false);
      await expect.poll(() => onServerForAna(text), { timeout: 15_000 }).toBe(1);
      await expect
        .poll(() => again.locator(".timeline .item:not(.item-local) .text", { hasText: text }).count(), {
          timeout: 15_000,
        })
        .toBe(1);
      await expect.poll(() => again.locator(".item-local", { hasText: text }).count()).toBe(0);
      await expect.poll(() => keptOnDevice(again)).toEqual([]);
      // Opened once more: nothing is sent twice.
      await again.reload();
      await again.locator(".timeline .item .text", { hasText: text }).first().waitFor();
      expect(await again.locator(".item-local").count()).toBe(0);
      expect(await onServerForAna(text)).toBe(1);
    } finally {
      await ctx.close();
    }
  });

  test("a new release replaces the cached shell whole", async () => {
    // Ana: Dan's token ended when he signed out above.
    const { ctx, page } = await signedIn(browser, server.url, demoPerson(server, "Ana").token);
    try {
      await workerReady(page);
      // Chromium's own installability check: a valid manifest with its icons, and a worker that handles fetches.
      const cdp = await ctx.newCDPSession(page);
      const manifest = await cdp.send("Page.getAppManifest");
      expect(manifest.errors).toEqual([]);
      expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
      // A test's browser context is an incognito one, where nothing installs; every other criterion holds.
      await expect
        .poll(async () =>
          (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors
            .map((e) => e.errorId)
            .filter((id) => id !== "in-incognito"),
        )
        .toEqual([]);
      const [before] = await shellCaches(page);
      expect(before).toMatch(/^logline-shell-[\w-]+$/);
      expect(await shellCaches(page)).toHaveLength(1);
      const sw = await (await fetch(`${server.url}/sw.js`)).text();
      expect(sw).toContain(before!.slice("logline-shell-".length));

      // A new release: one changed file of the web app.
      const css = join(web, "styles.css");
      writeFileSync(css, `${readFileSync(css, "utf8")}\n/* release 2 */\n`);
      utimesSync(css, new Date(), new Date(Date.now() + 5000));
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.update());
      // The new version is installed, and the old one deleted when it takes over.
      await expect
        .poll(
          async () => {
            const names = await shellCaches(page);
            return names.length === 1 && names[0] !== before;
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      const after = await shellCaches(page);
      // The page names its files under its release (`/r/<release>/…`), and the worker keeps them so.
      const kept = await page.evaluate(async (name) => {
        const cache = await caches.open(name);
        const key = (await cache.keys()).find((r) => /^\/r\/[\w-]{16}\/styles\.css$/.test(new URL(r.url).pathname));
        return key ? (await cache.match(key))?.text() : undefined;
      }, after[0]!);
      expect(kept).toContain("/* release 2 */");

      // Offline, the page opens on the new shell.
      await ctx.setOffline(true);
      await page.reload();
      await page.locator(".sidebar").waitFor();
      const sheet = await page.evaluate(() => document.querySelector('link[rel="stylesheet"]')?.getAttribute("href"));
      expect(sheet).toMatch(/^\/r\/[\w-]{16}\/styles\.css$/);
      expect(await page.evaluate(async (href) => (await fetch(href)).text(), sheet!)).toContain("/* release 2 */");
    } finally {
      await ctx.close();
    }
  });
});
