/**
 * Messenger benchmark in Debian's Chromium (loopback only, ~1–3 min): Dan's direct chat with Ana
 * holds N messages (2,000, then 10,000; appended straight through the ledger, half from each), and
 * the page has paged back to the first one. Measured, each the median of 5:
 *  1. open: a click on the chat in the list (coming from another chat) → its timeline painted;
 *  2. Enter → my own bubble painted (the composer's keydown to the frame after it is in the DOM);
 *  3. a reaction arriving: Ana's POST → the chip painted on my page (server, stream and render);
 * and, for scale, the same send and reaction in a small chat. The page's clock and this
 * process's are both the machine's wall clock (Date.now), so (3) spans the two.
 * Runs standalone (`npx tsx test/bench/browser.ts`) or from test/bench/run.ts via runBrowserBench().
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { appendNumbered, textEvent } from "../support/messages.js";
import { demoPerson, postJson, startTestServer, type TestServer } from "../support/server.js";
import { figure, loadavg } from "./report.js";

/** The browser figures are the median of 5 (a frame or a GC moves one run a lot). */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const DM = "cnv_dan_ana";
const SMALL_TITLE = "Bench small";
const T = "tnt_acme_001";

async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
}

/** Messages "bench 1" … appended to the chat, alternating Dan and Ana, `from` onward. */
async function seed(server: TestServer, from: number, to: number): Promise<void> {
  const dan = demoPerson(server, "Dan").entity_id;
  const ana = demoPerson(server, "Ana").entity_id;
  for (let i = from; i < to; i += 500) {
    const events = [];
    for (let k = i; k < Math.min(to, i + 500); k++)
      events.push(textEvent(DM, k % 2 ? ana : dan, `bench ${k + 1} ${"lorem ipsum ".repeat(1 + (k % 7))}`));
    await server.server.ledger.append({ tenant_id: T, events });
  }
}

/** Resolves in the page with Date.now() of the frame after `selector` (matching `text`) appears. */
async function armPaint(page: Page, selector: string, text: string): Promise<void> {
  // A string, not a function: tsx's helpers (__name) do not exist in the page.
  await page.evaluate(`(() => {
    const selector = ${JSON.stringify(selector)};
    const text = ${JSON.stringify(text)};
    window.__painted = new Promise((resolve) => {
      const found = () => [...document.querySelectorAll(selector)].some((e) => e.textContent.includes(text));
      const done = () => requestAnimationFrame(() => setTimeout(() => resolve(Date.now())));
      if (found()) return done();
      const mo = new MutationObserver(() => {
        if (!found()) return;
        mo.disconnect();
        done();
      });
      mo.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  })()`);
}
const painted = (page: Page) => page.evaluate<number>("window.__painted");

const openChat = (page: Page, cid: string) => page.locator(`[data-conversation-id="${cid}"]`).first().click();

/** Pages the open chat back to its first message (scrolling to the top until the start shows). */
async function scrollToStart(page: Page): Promise<void> {
  const timeline = page.locator(".timeline");
  for (let i = 0; i < 200; i++) {
    if (await page.locator(".history-start").count()) return;
    await timeline.evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event("scroll"));
    });
    await page.waitForTimeout(50);
    await page.waitForFunction(() => !document.querySelector(".history-more button[disabled]"), null, {
      timeout: 120_000,
    });
  }
  throw new Error("history did not reach its start");
}

/** Click → the chat's last message painted, coming from the small chat each time. */
async function measureOpen(page: Page, cid: string, lastText: string, back: string): Promise<number[]> {
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    await openChat(page, back);
    await page.locator(".timeline").waitFor();
    await page.waitForTimeout(300);
    await armPaint(page, ".timeline .item .text", lastText);
    await page.evaluate(
      `document.addEventListener("click", () => { window.__clickAt = Date.now(); }, { capture: true, once: true })`,
    );
    await openChat(page, cid);
    const end = await painted(page);
    runs.push(end - (await page.evaluate<number>("window.__clickAt")));
  }
  return runs;
}

/** Enter in the composer → my bubble with that text painted (timed inside the page). */
async function measureSend(page: Page, tag: string): Promise<number[]> {
  const runs: number[] = [];
  const box = page.getByRole("textbox", { name: "Message" });
  for (let r = 0; r < RUNS; r++) {
    const text = `${tag} send ${r} ${Date.now()}`;
    await box.click();
    await box.fill(text);
    await armPaint(page, ".timeline .item .text", text);
    await page.evaluate(
      `document.addEventListener("keydown", () => { window.__keyAt = Date.now(); }, { capture: true, once: true })`,
    );
    await box.press("Enter");
    const end = await painted(page);
    runs.push(end - (await page.evaluate<number>("window.__keyAt")));
    await page.waitForTimeout(300);
  }
  return runs;
}

/** Ana reacts to Dan's latest message: her POST → the chip painted on Dan's page. */
async function measureReaction(page: Page, server: TestServer, cid: string): Promise<number[]> {
  const ana = demoPerson(server, "Ana");
  const runs: number[] = [];
  const emojis = ["👍", "🎉", "❤️", "😄", "👀", "🙏", "🚀"];
  for (let r = 0; r < RUNS; r++) {
    const mid = await page
      .locator(".timeline .item:has(.msg-out)")
      .last()
      .getAttribute("data-message-id")
      .then((m) => m ?? "");
    const emoji = emojis[r % emojis.length]!;
    await armPaint(page, `.timeline .item[data-message-id="${mid}"] .reaction-chip`, emoji);
    const t0 = Date.now();
    const res = await postJson(`${server.url}/v1/conversations/${cid}/messages/${mid}/reactions`, ana.token, {
      emoji,
      on: true,
    });
    if (res.status >= 300) throw new Error(`reaction answered ${res.status}: ${JSON.stringify(res.body)}`);
    runs.push((await painted(page)) - t0);
    await page.waitForTimeout(300);
  }
  return runs;
}

export async function runBrowserBench(): Promise<void> {
  // The page's "Today" and the server's must agree: the server runs on the real clock here.
  process.env.LOGLINE_TEST_CLOCK = "real";
  const [server, browser] = await Promise.all([startTestServer(), launch()]);
  const dan = demoPerson(server, "Dan");
  const ana = demoPerson(server, "Ana");
  try {
    const small = await postJson(`${server.url}/v1/conversations`, dan.token, {
      title: SMALL_TITLE,
      participants: [{ entity_id: ana.entity_id }],
    });
    const SMALL = small.body.conversation_id as string;
    await appendNumbered(server, SMALL, ana.entity_id, 20, "small");
    console.log("browser (Chromium, 1280×800, Dan's direct chat with Ana):");
    let seeded = 0;
    for (const n of [2_000, 10_000]) {
      await seed(server, seeded, n);
      seeded = n;
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      page.on("pageerror", (e) => console.error("pageerror:", e.message));
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan.token)}`);
      await page.locator(".sidebar").waitFor();
      await openChat(page, DM);
      await page.locator(".timeline .item", { hasText: `bench ${n} ` }).waitFor();
      const t0 = performance.now();
      await scrollToStart(page);
      const paged = performance.now() - t0;
      const items = await page.locator(".timeline .item").count();
      console.log(
        `  ${n.toLocaleString("en-US")} messages: paged back to the first in ${(paged / 1000).toFixed(1)} s; ${items.toLocaleString("en-US")} items in the DOM; ${loadavg()}`,
      );
      figure(
        `open the chat (${n.toLocaleString("en-US")}, paged back)`,
        await measureOpen(page, DM, `bench ${n} `, SMALL),
        " ms",
        {
          op: "≤",
          value: 500,
        },
      );
      figure(`Enter → own bubble (${n.toLocaleString("en-US")})`, await measureSend(page, `n${n}`), " ms", {
        op: "≤",
        value: 50,
      });
      figure(
        `reaction POST → chip painted (${n.toLocaleString("en-US")})`,
        await measureReaction(page, server, DM),
        " ms",
      );
      if (n === 2_000) {
        await openChat(page, SMALL);
        await page.locator(".timeline .item .text", { hasText: /^small 20$/ }).waitFor();
        figure("Enter → own bubble (small chat, 20)", await measureSend(page, "small"), " ms", { op: "≤", value: 50 });
        figure("reaction POST → chip painted (small chat)", await measureReaction(page, server, SMALL), " ms");
      }
      await ctx.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(loadavg());
  await runBrowserBench();
  console.log(loadavg());
}
