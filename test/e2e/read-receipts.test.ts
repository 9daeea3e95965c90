import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, PHONE, send, signedIn } from "./harness.js";

/**
 * Read receipts between two live browsers: Dan's ✓ turns ✓✓ when his message reaches Ana's
 * device and blue when she reads it; in a group, "Seen by" names who read; a person who turns
 * receipts off is shown as delivered, never read; all of it the same after a restart.
 */
let server: TestServer;
let browser: Browser;
let dataDir: string;

const dan = () => server.demo.humans.find((h) => h.display_name === "Dan")!;
const ana = () => server.demo.humans.find((h) => h.display_name === "Ana")!;
const DIRECT = "cnv_dan_ana";

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ keep: true }), launchBrowser()]);
  dataDir = server.dataDir;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  const { rmSync } = await import("node:fs");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The receipt shown on my bubble holding `text` ("" while it is not on the page). */
const tickOf = (page: Page, text: string) =>
  page
    .locator(".msg-out", { has: page.locator(".text", { hasText: text }) })
    .locator(".tick")
    .first()
    .getAttribute("data-receipt", { timeout: 1000 })
    .catch(() => "");

describe("read receipts", () => {
  test("1:1: sent, delivered to the other's device, read when they open it; the same after a restart", async () => {
    const d = await signedIn(browser, server.url, dan().token);
    await d.page.goto(`${server.url}/c/${DIRECT}`);
    // Ana is on her phone, on the list of chats: the message reaches her device, unread.
    const a = await signedIn(browser, server.url, ana().token, PHONE);
    await a.page.locator(`.conv-row[data-conversation-id="${DIRECT}"]`).waitFor();
    await send(d.page, "Receipt check one");
    await expect.poll(() => tickOf(d.page, "Receipt check one"), { timeout: 15_000 }).toBe("delivered");
    // The words for screen readers follow the glyph.
    await expect
      .poll(() => d.page.locator(".msg-out .tick-delivered .visually-hidden").last().textContent())
      .toBe("Delivered");
    await a.page.locator(`.conv-row[data-conversation-id="${DIRECT}"]`).click();
    await a.page.locator(".msg .text", { hasText: "Receipt check one" }).waitFor();
    await expect.poll(() => tickOf(d.page, "Receipt check one"), { timeout: 15_000 }).toBe("read");

    await d.ctx.close();
    await a.ctx.close();
    await server.close();
    server = await startTestServer({ keep: true, dataDir });
    const again = await signedIn(browser, server.url, dan().token);
    await again.page.goto(`${server.url}/c/${DIRECT}`);
    await expect.poll(() => tickOf(again.page, "Receipt check one"), { timeout: 15_000 }).toBe("read");
    await again.ctx.close();
  }, 120_000);

  test("a person who turns read receipts off shows as delivered; a group's 'Seen by' names only who shares it", async () => {
    const inv = await postJson(`${server.url}/v1/invites`, dan().token, { display_name: "Bea" });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    const joined = await postJson(`${server.url}/v1/invites/${inv.body.invite_token}/accept`, "", {
      display_name: "Bea",
    });
    expect(joined.status, JSON.stringify(joined.body)).toBeLessThan(300);
    const bea = { token: joined.body.token as string, entity_id: joined.body.entity_id as string };
    const g = await postJson(`${server.url}/v1/conversations`, dan().token, {
      title: "Receipts group",
      participants: [{ entity_id: ana().entity_id }, { entity_id: bea.entity_id }],
    });
    expect(g.status, JSON.stringify(g.body)).toBeLessThan(300);
    const group = g.body.conversation_id as string;

    // Ana turns receipts off in her profile.
    const a = await signedIn(browser, server.url, ana().token, PHONE);
    await a.page.getByRole("button", { name: "Your profile" }).click();
    const dialog = a.page.getByRole("dialog", { name: "Your profile" });
    const box = dialog.getByRole("checkbox", { name: "Let others see when I have read their messages" });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await expect
      .poll(async () => (await getJson(`${server.url}/v1/session`, ana().token)).body.read_receipts)
      .toBe(false);
    await dialog.press("Escape");

    const d = await signedIn(browser, server.url, dan().token);
    await d.page.goto(`${server.url}/c/${group}`);
    await send(d.page, "Group receipt check");
    // Ana reads it in her browser; Bea reads it too.
    await a.page.goto(`${server.url}/c/${group}`);
    await a.page.locator(".msg .text", { hasText: "Group receipt check" }).waitFor();
    const tl = await getJson(`${server.url}/v1/conversations/${group}/timeline`, bea.token);
    const last = tl.body.items.at(-1);
    expect(
      (await postJson(`${server.url}/v1/conversations/${group}/read`, bea.token, { cursor: last.cursor })).status,
    ).toBeLessThan(300);
    await expect
      .poll(
        () =>
          d.page
            .locator(".seen-by")
            .textContent({ timeout: 1000 })
            .catch(() => ""),
        { timeout: 15_000 },
      )
      .toBe("Seen by Bea");
    // Delivered to both (Ana's device has it), read by Bea alone as far as Dan can tell.
    expect(await tickOf(d.page, "Group receipt check")).toBe("delivered");
    const summary = (await getJson(`${server.url}/v1/conversations/${group}`, dan().token)).body;
    const anaMark = summary.conversation.receipts.find((r: { entity_id: string }) => r.entity_id === ana().entity_id);
    const seq = (c: string) => Number(c.slice(4));
    expect(seq(anaMark.delivered_up_to)).toBeGreaterThanOrEqual(seq(last.cursor));
    expect(anaMark.read_up_to).toBeUndefined();

    // In the 1:1 too: Ana opening it leaves Dan's message at delivered.
    await d.page.goto(`${server.url}/c/${DIRECT}`);
    await send(d.page, "Receipt check two");
    await a.page.goto(`${server.url}/c/${DIRECT}`);
    await a.page.locator(".msg .text", { hasText: "Receipt check two" }).waitFor();
    await expect.poll(() => tickOf(d.page, "Receipt check two"), { timeout: 15_000 }).toBe("delivered");
    await d.page.waitForTimeout(1500);
    expect(await tickOf(d.page, "Receipt check two")).toBe("delivered");
    await d.ctx.close();
    await a.ctx.close();
  }, 120_000);

  test("signing in on a wide screen does not open (and so mark read) a chat with unread messages", async () => {
    const g = await postJson(`${server.url}/v1/conversations`, ana().token, {
      title: "Planning with Office",
      participants: [{ entity_id: dan().entity_id }, { entity_id: server.demo.agents[0]!.entity_id }],
    });
    expect(g.status, JSON.stringify(g.body)).toBeLessThan(300);
    const cid = g.body.conversation_id as string;
    expect(
      (
        await postJson(`${server.url}/v1/conversations/${cid}/messages`, ana().token, {
          kind: "text",
          body_text: "Dan, see this when you are in",
        })
      ).status,
    ).toBeLessThan(300);
    const unread = async () =>
      (await getJson(`${server.url}/v1/conversations`, dan().token)).body.items.find(
        (c: { conversation_id: string }) => c.conversation_id === cid,
      )?.unread_count;
    await expect.poll(unread).toBeGreaterThan(0);

    const d = await signedIn(browser, server.url, dan().token);
    await d.page.locator(`.conv-row[data-conversation-id="${cid}"].unread`).waitFor();
    await d.page.waitForTimeout(1500);
    expect(new URL(d.page.url()).pathname).toBe("/");
    expect(await unread()).toBeGreaterThan(0);
    await d.ctx.close();
  }, 60_000);
});
