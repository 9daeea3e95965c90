import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { DESKTOP, launchBrowser, signedIn } from "./harness.js";

/**
 * Being told in the browser: the unread total in the tab title and favicon, the in-app offer
 * to turn notifications on, a notification while the tab is hidden (clicking it opens the
 * conversation), and muting a conversation. Notifications the page creates are recorded by a
 * wrapper around the browser's own Notification, which still creates them.
 */
let server: TestServer;
let browser: Browser;
const DM = "cnv_dan_ana";
const dan = () => demoPerson(server, "Dan");
const ana = () => demoPerson(server, "Ana");

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser([], { serviceWorkers: "allow" })]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const anaSays = async (text: string) => {
  const r = await postJson(`${server.url}/v1/conversations/${DM}/messages`, ana().token, {
    kind: "text",
    body_text: text,
  });
  expect(r.status).toBe(202);
  return r.body.created_event_ids[0] as string;
};
const title = (page: Page) => page.evaluate(() => document.title);
/** The count drawn on the favicon ("" when there is no badge). */
const faviconCount = (page: Page) =>
  page.evaluate(() => {
    const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? "";
    return /<text[^>]*>([^<]+)<\/text>/.exec(decodeURIComponent(href.replace(/^data:image\/svg\+xml,/, "")))?.[1] ?? "";
  });

describe("notifications in the browser", () => {
  test("the tab title and favicon count unread messages live, and clear when the conversation is read", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    try {
      // Dan is in his chat with the agent (wide screens open it); Ana writes in their direct chat.
      await expect.poll(() => page.url()).toContain("/c/cnv_9f2a");
      // The tab names the view: the open conversation, then the app.
      const agentChat = (await page.locator('[data-conversation-id="cnv_9f2a"] .conv-title').textContent()) ?? "";
      const anaChat = (await page.locator(`[data-conversation-id="${DM}"] .conv-title`).textContent()) ?? "";
      expect(agentChat).not.toBe("");
      await expect.poll(() => title(page)).toBe(`${agentChat} · LogLine`);
      expect(await faviconCount(page)).toBe("");
      await anaSays("first");
      await expect.poll(() => title(page)).toBe(`(1) ${agentChat} · LogLine`);
      expect(await faviconCount(page)).toBe("1");
      await anaSays("second");
      await expect.poll(() => title(page)).toBe(`(2) ${agentChat} · LogLine`);
      expect(await faviconCount(page)).toBe("2");
      await page.locator(`[data-conversation-id="${DM}"]`).click();
      await expect.poll(() => title(page)).toBe(`${anaChat} · LogLine`);
      expect(await faviconCount(page)).toBe("");
    } finally {
      await ctx.close();
    }
  });

  test("permission is asked only from the in-app offer; then a hidden tab shows a notification that opens the conversation", async () => {
    // Headless Chromium answers "denied" for an origin that never asked; a person's browser
    // answers "default". The wrapper starts from "default" and hands requestPermission to the
    // browser's own (granted below through the context, as a person's click would).
    const ctx = await browser.newContext({ viewport: DESKTOP });
    await ctx.addInitScript(() => {
      const Real = window.Notification;
      let asked = false;
      const shown: Array<{ title: string; body?: string; tag?: string; note: Notification }> = [];
      (window as unknown as { shown: typeof shown }).shown = shown;
      const Recorded = function (this: unknown, t: string, o?: NotificationOptions) {
        const note = new Real(t, o);
        shown.push({ title: t, ...(o?.body ? { body: o.body } : {}), ...(o?.tag ? { tag: o.tag } : {}), note });
        return note;
      } as unknown as typeof Notification;
      Object.defineProperty(Recorded, "permission", { get: () => (asked ? Real.permission : "default") });
      Recorded.requestPermission = () => {
        asked = true;
        return Real.requestPermission();
      };
      window.Notification = Recorded;
    });
    const page = await ctx.newPage();
    await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan().token)}`);
    await page.locator(".sidebar").waitFor();
    try {
      // Nothing was asked on load: the browser's answer is still "default".
      expect(await page.evaluate(() => Notification.permission)).toBe("default");
      const banner = page.getByRole("region", { name: "Notifications" });
      await expect.poll(() => banner.textContent()).toContain("Get notified of messages and jobs waiting on you");
      const axe = await new AxeBuilder({ page }).include(".notify-banner").analyze();
      expect(axe.violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => v.id)).toEqual(
        [],
      );

      await ctx.grantPermissions(["notifications"], { origin: server.url });
      await banner.getByRole("button", { name: "Turn on" }).click();
      await expect.poll(() => banner.count()).toBe(0);
      // The service worker that shows pushes is ours, same-origin, for the whole app.
      await expect
        .poll(
          () =>
            page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL ?? null),
          { timeout: 10_000 },
        )
        .toBe(`${server.url}/sw.js`);

      // The person looks elsewhere: the tab is hidden.
      await page.evaluate(() => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
        document.dispatchEvent(new Event("visibilitychange"));
      });
      const eventId = await anaSays("Are you free at 3? Mail m@example.com");
      const shown = () =>
        page.evaluate(() =>
          (window as unknown as { shown: Array<{ title: string; body?: string; tag?: string }> }).shown.map(
            ({ title, body, tag }) => ({ title, body, tag }),
          ),
        );
      // What the ledger holds: the address typed into chat was moved to the vault first.
      await expect
        .poll(shown)
        .toEqual([{ title: "Ana", body: "Are you free at 3? Mail m***@example.com", tag: eventId }]);

      // Clicking it brings the tab forward on the conversation.
      await page.evaluate(() => {
        const { note } = (window as unknown as { shown: Array<{ note: Notification }> }).shown[0]!;
        note.onclick?.(new Event("click"));
      });
      await expect.poll(() => page.url()).toBe(`${server.url}/c/${DM}`);

      // A message Dan wrote himself tells him nothing.
      await postJson(`${server.url}/v1/conversations/${DM}/messages`, dan().token, { kind: "text", body_text: "mine" });
      await anaSays("barrier");
      await expect
        .poll(async () => (await shown()).map((s) => s.body))
        .toEqual(["Are you free at 3? Mail m***@example.com", "barrier"]);
    } finally {
      await ctx.close();
    }
  });

  test("muting a conversation from its header: saved on the server, and its unread no longer counts in the tab", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    try {
      await page.goto(`${server.url}/c/${DM}`);
      const mute = page.getByRole("button", { name: "Mute notifications" });
      await mute.click();
      const unmute = page.getByRole("button", { name: "Unmute notifications" });
      await expect.poll(() => unmute.getAttribute("aria-pressed")).toBe("true");
      const list = await getJson(`${server.url}/v1/conversations`, dan().token);
      expect(list.body.items.find((c: { conversation_id: string }) => c.conversation_id === DM).muted).toBe(true);

      await page.locator('[data-conversation-id="cnv_9f2a"]').click();
      await anaSays("while muted");
      await expect.poll(() => page.locator(`[data-conversation-id="${DM}"] .unread-badge`).count()).toBe(1);
      // A muted conversation's unread count stays out of the tab's title.
      expect(await title(page)).not.toMatch(/^\(/);

      await page.locator(`[data-conversation-id="${DM}"]`).click();
      await page.getByRole("button", { name: "Unmute notifications" }).click();
      await expect
        .poll(() => page.getByRole("button", { name: "Mute notifications" }).getAttribute("aria-pressed"))
        .toBe("false");
      expect(
        (await getJson(`${server.url}/v1/conversations`, dan().token)).body.items.find(
          (c: { conversation_id: string }) => c.conversation_id === DM,
        ).muted,
      ).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });
});
