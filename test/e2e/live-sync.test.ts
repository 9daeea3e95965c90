import { mkdirSync, rmSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";
import {
  approveUntilWaiting,
  ARTIFACTS,
  askForJob,
  card,
  DESKTOP,
  fillInputModal,
  launchBrowser,
  shot,
  signedIn,
  textOf,
} from "./harness.js";
import { startProxy, type StreamProxy } from "./live-proxy.js";

/**
 * The UI's live behaviour against the real server, with a pass-through proxy in between so a
 * test can break only the event stream, or restart the server behind the same address.
 * The delta log is kept short (10 groups) so a gap of a dozen messages outruns it.
 */
const DELTA_LOG = 10;

let server: TestServer;
let proxy: StreamProxy;
let browser: Browser;
let dataDir: string;
/** A Dan–Ana chat: only people, so no agent reply adds events the tests did not make. */
let pairId: string;

const dan = () => demoPerson(server, "Dan");
const ana = () => demoPerson(server, "Ana");
let n = 0;
const nonce = (what: string) => `${what} #${++n}-${Date.now().toString(36)}`;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [server, browser] = await Promise.all([startTestServer({ keep: true, deltaLogSize: DELTA_LOG }), launchBrowser()]);
  dataDir = server.dataDir;
  proxy = await startProxy(server.url);
  const r = await postJson(`${server.url}/v1/conversations`, dan().token, {
    title: "Ana",
    participants: [{ entity_id: dan().entity_id }, { entity_id: ana().entity_id }],
  });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  pairId = r.body.conversation_id;
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Dan's browser through the proxy; `live` sets the page's poll/retry timings before it starts. */
async function openAsDan(
  path: string,
  live?: { pollMs?: number; retryMs?: number },
): Promise<{ ctx: BrowserContext; page: Page }> {
  const { ctx, page } = await signedIn(browser, proxy.url, dan().token, DESKTOP, live);
  await page.goto(`${proxy.url}${path}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await waitLive(page);
  return { ctx, page };
}

async function waitLive(page: Page, timeout = 15_000): Promise<void> {
  await expect.poll(() => page.locator(".conn").count(), { timeout }).toBe(0);
}

async function anaSays(text: string, conversationId = pairId): Promise<void> {
  const r = await postJson(`${server.url}/v1/conversations/${conversationId}/messages`, ana().token, {
    kind: "text",
    body_text: text,
    client_message_id: `cm_${Math.random().toString(36).slice(2)}`,
  });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
}

const shown = (page: Page, text: string) => page.locator(".msg .text", { hasText: text }).count();

/**
 * Every text appears exactly once, and still does once a later message has arrived: frames come
 * in order, so a late duplicate of anything before that message would be on the page by then.
 */
async function eachOnce(page: Page, texts: string[], conversationId = pairId): Promise<void> {
  for (const t of texts) await expect.poll(() => shown(page, t), { timeout: 15_000 }).toBe(1);
  const later = nonce("later");
  await anaSays(later, conversationId);
  await expect.poll(() => shown(page, later), { timeout: 15_000 }).toBe(1);
  for (const t of texts) expect(await shown(page, t), t).toBe(1);
}

describe("Live updates in a real browser", () => {
  test("a dropped stream resumes from its Last-Event-ID: the gap arrives, nothing twice", async () => {
    const { ctx, page } = await openAsDan(`/c/${pairId}`);
    const before = nonce("before the drop");
    await anaSays(before);
    await eachOnce(page, [before]);

    const opened = proxy.streams.length;
    expect(proxy.cutStreams()).toBeGreaterThan(0);
    const gap = [nonce("in the gap"), nonce("also in the gap")];
    for (const t of gap) await anaSays(t);

    // EventSource comes back on its own (the server's retry: hint) and names its last event.
    await expect
      .poll(() => proxy.streams.slice(opened).find((s) => s.lastEventId)?.lastEventId, { timeout: 10_000 })
      .toMatch(/^seq:\d+$/);
    await eachOnce(page, [before, ...gap]);
    const after = nonce("after the resume");
    await anaSays(after);
    await eachOnce(page, [after]);
    await ctx.close();
  });

  test("my message that comes back on the stream before the server's 202 is one bubble, not two", async () => {
    const { ctx, page } = await openAsDan(`/c/${pairId}`);
    // The POST reaches the server at once; its answer is held back until the test lets it go.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let posted = false;
    let answered: Promise<void> = Promise.resolve();
    await page.route(`**/v1/conversations/${pairId}/messages`, (route) => {
      if (route.request().method() !== "POST") return route.continue();
      answered = (async () => {
        const response = await route.fetch();
        posted = true;
        await held;
        await route.fulfill({ response });
      })();
      return answered;
    });
    const mine = nonce("sent before its answer");
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill(mine);
    await page.keyboard.press("Enter");
    await expect.poll(() => posted).toBe(true);
    // The stream's copy has arrived when Dan's own bubble carries the server's time stamp; the
    // pending bubble is then gone, though the 202 has not come.
    await expect.poll(() => page.locator(".item-local").count(), { timeout: 15_000 }).toBe(0);
    expect(await shown(page, mine)).toBe(1);
    release();
    await answered;
    await eachOnce(page, [mine]);
    await ctx.close();
  });

  test("while the stream is down the page polls (interval set by the page), then goes live again and stops polling", async () => {
    const { ctx, page } = await openAsDan(`/c/${pairId}`, { pollMs: 400, retryMs: 4000 });
    proxy.blockStreams(true);
    proxy.cutStreams();
    try {
      const banner = page.locator(".conn-down");
      await banner.waitFor({ timeout: 10_000 });
      expect(await textOf(banner)).toMatch(/updates every 0\.4 s/);
      await shot(page, "20-desktop-reconnecting");

      // Only the poll can bring this in: the stream is refused and the first retry is 4 s away.
      const t0 = Date.now();
      const polled = nonce("seen by polling");
      await anaSays(polled);
      await expect.poll(() => shown(page, polled), { timeout: 3000 }).toBe(1);
      expect(Date.now() - t0).toBeLessThan(3000);
      const from = Date.now();
      await expect
        .poll(() => proxy.listCalls.filter((t) => t >= from).length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(3);
    } finally {
      proxy.blockStreams(false);
    }
    await waitLive(page, 20_000);
    await page.waitForTimeout(300);
    const from = Date.now();
    await page.waitForTimeout(1500);
    expect(proxy.listCalls.filter((t) => t >= from).length).toBeLessThanOrEqual(1);
    const live = nonce("live again");
    await anaSays(live);
    await eachOnce(page, [live]);
    await ctx.close();
  });

  test("a cursor older than the server's delta log gets CURSOR_TOO_OLD and the page resyncs: nothing lost, nothing twice", async () => {
    const { ctx, page } = await openAsDan(`/c/${pairId}`);
    const opened = proxy.streams.length;
    proxy.cutStreams();
    // More groups than the delta log holds, inside the browser's 2 s reconnect delay.
    const gap = Array.from({ length: DELTA_LOG + 3 }, (_, i) => nonce(`burst ${i}`));
    for (const t of gap) await anaSays(t);

    await expect.poll(() => proxy.streams.slice(opened).some((s) => s.lastEventId), { timeout: 10_000 }).toBe(true);
    // After the error frame the page reloads and opens a fresh stream from the cursor it got.
    await expect
      .poll(
        () =>
          proxy.streams.slice(opened).filter((s) => !s.lastEventId && /cursor=seq%3A\d+|cursor=seq:\d+/.test(s.path))
            .length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    await eachOnce(page, gap);
    await waitLive(page);
    const after = nonce("after the resync");
    await anaSays(after);
    await eachOnce(page, [after]);
    await ctx.close();
  });

  test("unread badges count what arrives elsewhere and clear when the conversation is read (and stay cleared)", async () => {
    const made = await postJson(`${server.url}/v1/conversations`, ana().token, {
      title: "Ana (unread)",
      participants: [{ entity_id: ana().entity_id }, { entity_id: dan().entity_id }],
    });
    expect(made.status).toBeLessThan(300);
    const cid = made.body.conversation_id as string;
    const { ctx, page } = await openAsDan(`/c/${server.demo.conversation_id}`);
    const row = page.locator(`.conv-row[data-conversation-id="${cid}"]`);
    const badge = row.locator(".unread-badge");

    await anaSays(nonce("first unread"), cid);
    await anaSays(nonce("second unread"), cid);
    await expect.poll(() => textOf(badge), { timeout: 10_000 }).toBe("2");
    await shot(page, "21-desktop-unread-badge");

    await row.click();
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await expect.poll(() => badge.count()).toBe(0);
    const unreadOnServer = async () =>
      (
        (await getJson(`${server.url}/v1/conversations`, dan().token)).body.items as Array<{
          conversation_id: string;
          unread_count: number;
        }>
      ).find((c) => c.conversation_id === cid)?.unread_count;
    await expect.poll(unreadOnServer, { timeout: 5000 }).toBe(0);

    // A message in the open conversation is read at once.
    const open = nonce("while open");
    await anaSays(open, cid);
    await expect.poll(() => shown(page, open), { timeout: 10_000 }).toBe(1);
    expect(await badge.count()).toBe(0);
    await expect.poll(unreadOnServer, { timeout: 5000 }).toBe(0);

    // Reloaded elsewhere: still read; a new message counts one.
    await page.goto(`${proxy.url}/c/${server.demo.conversation_id}`);
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await waitLive(page);
    expect(await badge.count()).toBe(0);
    await anaSays(nonce("one more"), cid);
    await expect.poll(() => textOf(badge), { timeout: 10_000 }).toBe("1");
    await ctx.close();
  });

  test("the input modal shows the server's field errors in place (an email the browser accepts, the server refuses)", async () => {
    const { ctx, page } = await openAsDan(`/c/${server.demo.conversation_id}`);
    // One more proposal than before: the demo chat already holds cards an earlier click could hit.
    await askForJob(page, "Can you schedule a 30-min call with Maria next week?");
    await approveUntilWaiting(page);
    await card(page, "tracking").getByRole("button", { name: "Provide info" }).click();
    const modal = page.getByRole("dialog");
    await modal.waitFor();
    await fillInputModal(page, { email: "maria.acme.com" });
    await modal.getByRole("button", { name: "Provide info" }).click();

    const emailField = modal.locator(".form-field", { has: page.locator("label", { hasText: /email/i }) });
    await expect
      .poll(() => textOf(emailField.locator(".field-error")), { timeout: 10_000 })
      .toMatch(/doesn’t look like an email/);
    expect(await emailField.locator("input").getAttribute("aria-invalid")).toBe("true");
    expect(await modal.locator(".field-error").count()).toBe(1); // only the refused field
    expect(await emailField.locator("input").inputValue()).toBe("maria.acme.com"); // nothing typed is lost
    await expect.poll(() => textOf(modal.locator(".form-error"))).toMatch(/fix the highlighted/i);
    await shot(page, "22-desktop-server-field-error");
    // No "Couldn't send" bubble for a refusal the modal is showing.
    expect(await page.locator(".msg-action.msg-failed").count()).toBe(0);

    await emailField.locator("input").fill("maria@acme.com");
    await modal.getByRole("button", { name: "Provide info" }).click();
    await modal.waitFor({ state: "detached" });
    await card(page, "finished").waitFor({ timeout: 20_000 });
    await ctx.close();
  });

  test("new conversation: several coworkers make a group chat", async () => {
    const { ctx, page } = await openAsDan(`/c/${server.demo.conversation_id}`);
    await page.getByRole("button", { name: "New conversation" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "New group" }).click();
    const create = dialog.getByRole("button", { name: /Create group/ });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole("checkbox", { name: /Ana/ }).click();
    expect(await create.isDisabled()).toBe(true); // a group needs two others
    await dialog.getByRole("checkbox", { name: /Office Scheduler/ }).click();
    expect(await dialog.getByRole("checkbox", { name: /Ana/ }).getAttribute("aria-checked")).toBe("true");
    await dialog.getByRole("textbox", { name: "Group name" }).fill("Front desk (live)");
    await shot(page, "23-desktop-new-group");
    await create.click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => textOf(page.locator(".chat-head h1"))).toBe("Front desk (live)");
    const cid = decodeURIComponent(/\/c\/([^/?#]+)/.exec(page.url())![1]!);
    const conv = await getJson(`${server.url}/v1/conversations/${cid}`, dan().token);
    const ids = (conv.body.participant_entity_ids ?? conv.body.conversation?.participant_entity_ids) as string[];
    expect([...ids].sort()).toEqual([dan().entity_id, ana().entity_id, server.demo.agents[0]!.entity_id].sort());

    // Ana is in it and what she says arrives live.
    const hi = nonce("hello group");
    await anaSays(hi, cid);
    await eachOnce(page, [hi], cid);
    await ctx.close();
  });

  test("a server restart on the same data dir: the page reconnects, catches up, nothing twice", async () => {
    const { ctx, page } = await openAsDan(`/c/${pairId}`);
    const before = nonce("before the restart");
    await anaSays(before);
    await eachOnce(page, [before]);

    await server.close(); // keep: the data dir stays
    await page.locator(".conn").first().waitFor({ timeout: 10_000 });
    server = await startTestServer({ dataDir, keep: true, deltaLogSize: DELTA_LOG });
    proxy.setUpstream(server.url);
    const after = [nonce("first after the restart"), nonce("second after the restart")];
    for (const t of after) await anaSays(t);

    await waitLive(page, 30_000);
    await eachOnce(page, [before, ...after]);
    const live = nonce("live after the restart");
    await anaSays(live);
    await eachOnce(page, [live]);
    await ctx.close();
  });
});
