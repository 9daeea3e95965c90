import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, PHONE, signedIn, textOf } from "./harness.js";

/**
 * (And, while a page is open, how sizes read.)
 * People's presence between two live browsers: Dan's header for his chat with Ana says Online
 * while a page of hers is open and "Last seen …" once she closes it; the agent stays Available.
 */
let server: TestServer;
let browser: Browser;
const dan = () => server.demo.humans.find((h) => h.display_name === "Dan")!;
const ana = () => server.demo.humans.find((h) => h.display_name === "Ana")!;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("presence for people", () => {
  test("online while her page is open, last seen once it closes", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    await d.page.goto(`${server.url}/c/cnv_dan_ana`);
    const status = d.page.locator(".chat-status .presence");
    await expect.poll(() => textOf(status), { timeout: 10_000 }).toMatch(/^Last seen /);

    const a = await signedIn(browser, server.url, ana().token, PHONE);
    await expect.poll(() => textOf(status), { timeout: 10_000 }).toBe("Online");
    await a.ctx.close();
    await expect.poll(() => textOf(status), { timeout: 10_000 }).toMatch(/^Last seen \d{1,2}:\d{2}/);

    await d.page.goto(`${server.url}/c/${server.demo.conversation_id}`);
    await expect.poll(() => textOf(d.page.locator(".chat-status .presence")), { timeout: 10_000 }).toBe("Available");
    await d.ctx.close();
  }, 60_000);

  test("a status and do not disturb set in one browser show in the other's header, live", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    await d.page.goto(`${server.url}/c/cnv_dan_ana`);
    const a = await signedIn(browser, server.url, ana().token, PHONE);
    await a.page.getByRole("button", { name: "Your profile" }).click();
    const dialog = a.page.getByRole("dialog", { name: "Your profile" });
    await dialog.getByRole("textbox", { name: "What are you up to?" }).fill("At the dentist");
    await dialog.getByRole("combobox", { name: "Clear after" }).selectOption("1h");
    await dialog.getByRole("button", { name: "Set status" }).click();
    await expect.poll(() => textOf(d.page.locator(".person-status")), { timeout: 10_000 }).toBe("At the dentist");
    await dialog.getByRole("checkbox", { name: /Do not disturb/ }).check();
    await expect
      .poll(() => textOf(d.page.locator(".person-status")), { timeout: 10_000 })
      .toBe("At the dentist · Do not disturb");
    await dialog.getByRole("button", { name: "Clear status" }).click();
    await expect.poll(() => textOf(d.page.locator(".person-status")), { timeout: 10_000 }).toBe("Do not disturb");
    await a.ctx.close();
    await d.ctx.close();
  }, 60_000);

  test("file sizes read as words in both languages: 1 byte, 607 bytes", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    // The page's own modules, from the release its entry was loaded from (the same URL is the
    // same module instance, with the language it loaded); a string, so the page's own import() runs.
    const base = await d.page.evaluate(
      () => new URL(".", (document.querySelector('script[type="module"]') as HTMLScriptElement).src).pathname,
    );
    expect(base).toMatch(/^\/r\/[\w-]{16}\/$/);
    const sizes = () =>
      d.page.evaluate<string[]>(`import("${base}format.js").then((f) => [f.bytes(1), f.bytes(607), f.bytes(2048)])`);
    expect(await sizes()).toEqual(["1 byte", "607 bytes", "2 kB"]);
    await d.page.evaluate(`import("${base}i18n.js").then((i) => i.loadLocale("pt"))`);
    expect((await sizes()).slice(0, 2)).toEqual(["1 byte", "607 bytes"]);
    await d.ctx.close();
  }, 60_000);
});
