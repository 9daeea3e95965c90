import { AxeBuilder } from "@axe-core/playwright";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  chromium,
  type Page,
  type Request,
  type Response,
} from "playwright-core";
import { expect } from "vitest";
import type { DemoInfo } from "../../src/gateway/index.js";
import { keepClosedContext, trackContext, trackPages } from "../support/in-flight.js";
import { startEmptyServer, startTestServer } from "../support/server.js";

/**
 * Browser-test plumbing: a real LogLine server on a free loopback port with a fresh data dir,
 * and one Debian Chromium shared by every test in a file.
 */
export interface RunningServer {
  url: string;
  demo: DemoInfo | null;
  close: () => Promise<void>;
}

const root = fileURLToPath(new URL("../..", import.meta.url));
export const ARTIFACTS = join(root, "test", "artifacts");

/**
 * The real server on 127.0.0.1:0 over a fresh temp data dir: the shared test server when the
 * demo is wanted, an empty database otherwise (onboarding starts from nothing).
 */
export async function startServer(opts: {
  demo: boolean;
  signup?: "open" | "invite" | "closed";
}): Promise<RunningServer> {
  if (opts.demo) return startTestServer();
  return { ...(await startEmptyServer({ signup: opts.signup })), demo: null };
}

/**
 * Debian's Chromium for one file. `extraArgs`: more switches (a fake microphone, say).
 * `serviceWorkers`: the app's service worker runs only in the files about it (offline use,
 * notifications); elsewhere every new context would install it and copy the whole app shell
 * into its cache beside the page's own load — a second load of every file, about a third more
 * of the browser's work per sign-in here, in tests that never look at it.
 */
export async function launchBrowser(
  extraArgs: string[] = [],
  opts: { serviceWorkers?: "allow" | "block" } = {},
): Promise<Browser> {
  if (extraArgs.length === 0 && opts.serviceWorkers === undefined) return laneBrowser();
  return startBrowser(extraArgs, opts);
}

let shared: Browser | null = null;

/**
 * The plain browser is shared by the files of one lane, which run one after another: starting
 * Chromium costs about 2 s of CPU here, once per lane instead of once per file. A file's
 * `close()` closes the contexts it opened (each test's cookies, storage and pages live in its
 * own context), not the browser; Playwright ends the browser when the lane's process exits.
 */
async function laneBrowser(): Promise<Browser> {
  if (shared?.isConnected()) return shared;
  const browser = await startBrowser([], {});
  browser.close = async () => {
    // The file is done: its contexts close for good, kept ones included.
    idle.delete(browser);
    closing.add(browser);
    try {
      await Promise.all(browser.contexts().map((c) => c.close()));
    } finally {
      closing.delete(browser);
    }
  };
  shared = browser;
  idle.set(browser, []);
  return browser;
}

/**
 * Signed-in pages kept for the next sign-in of the same file (lane browser only). A cold context
 * costs Chromium about 3.6 s of CPU here to sign in (its first load asks for ~150 files); the
 * same page navigated again, its cache warm, about 0.9 s. A context is kept only when its test
 * changed nothing that outlives a page load (see `keepable`): its storage and cookies are cleared,
 * its page's listeners removed and its document replaced before anyone gets it again.
 */
type Kept = { ctx: BrowserContext; page: Page; key: string };
const idle = new Map<Browser, Kept[]>();
const closing = new Set<Browser>();
/** How a context parks itself instead of closing, and starts to be reported on again. */
const parkers = new WeakMap<BrowserContext, { park: () => Promise<boolean>; track: () => void }>();

/** What a test may do to a context or page that a new load does not undo: any of it, and the context is not kept. */
const BOTH_CHANGE = [
  "route",
  "routeFromHAR",
  "routeWebSocket",
  "addInitScript",
  "exposeBinding",
  "exposeFunction",
  "setExtraHTTPHeaders",
];
const CONTEXT_CHANGES = [
  ...BOTH_CHANGE,
  "setOffline",
  "setGeolocation",
  "grantPermissions",
  "clearPermissions",
  "setHTTPCredentials",
];
const PAGE_CHANGES = [...BOTH_CHANGE, "emulateMedia", "setViewportSize"];
const CLOCK_CHANGES = [
  "install",
  "fastForward",
  "pauseAt",
  "resume",
  "runFor",
  "setFixedTime",
  "setSystemTime",
] as const;

function taintOn<T extends object>(target: T, names: readonly string[], taint: () => void): void {
  const methods = target as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== "function") continue;
    methods[name] = (...args: unknown[]) => {
      taint();
      return original.apply(target, args);
    };
  }
}

/** Makes a fresh signed-in context keepable: its `close()` parks it when nothing outlasting was changed. */
function keepable(browser: Browser, ctx: BrowserContext, page: Page, key: string): void {
  let tainted = false;
  const taint = () => void (tainted = true);
  taintOn(ctx, CONTEXT_CHANGES, taint);
  taintOn(page, PAGE_CHANGES, taint);
  taintOn(ctx.clock, CLOCK_CHANGES, taint);
  taintOn(page.clock, CLOCK_CHANGES, taint);
  const origins = new Set<string>();
  ctx.on("request", (r) => {
    const u = new URL(r.url());
    if (u.protocol === "http:" || u.protocol === "https:") origins.add(u.origin);
  });
  const entry = parkers.get(ctx);
  if (!entry) return;
  entry.park = async () => {
    const pool = idle.get(browser);
    if (!pool || tainted || closing.has(browser) || page.isClosed() || ctx.pages().length !== 1) return false;
    if (pool.some((k) => k.ctx === ctx)) return true;
    try {
      await page.evaluate(() => sessionStorage.clear()).catch(() => {});
      page.removeAllListeners();
      await page.goto("about:blank");
      const cdp = await ctx.newCDPSession(page);
      for (const origin of origins) await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
      await cdp.detach();
      await ctx.clearCookies();
      for (const k of ["Shift", "Control", "Alt", "Meta"]) await page.keyboard.up(k);
      origins.clear();
      pool.push({ ctx, page, key });
      return true;
    } catch {
      return false;
    }
  };
}

async function startBrowser(extraArgs: string[], opts: { serviceWorkers?: "allow" | "block" }): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Headless Chromium is the whole browser: every window (each context is one) would start
      // two renderers for the address bar's suggestion popup, which nothing here opens — about
      // 1.8 s of CPU per context on this machine, more than the Messenger's own page.
      "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
      ...extraArgs,
    ],
  });
  // Every context lists the requests it still waits on, for the report of a failed test.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const ctx = await newContext({ serviceWorkers: opts.serviceWorkers ?? "block", ...options });
    const waiting = new Map<Request, { line: string; at: number }>();
    const done = (r: Request) => void waiting.delete(r);
    ctx.on("request", (r) => waiting.set(r, { line: `${r.method()} ${new URL(r.url()).pathname}`, at: Date.now() }));
    // …and what went wrong on its pages: failed requests, script errors, console errors (the last few).
    const troubles: string[] = [];
    const trouble = (line: string) => {
      troubles.push(`browser: ${line.slice(0, 300)}`);
      if (troubles.length > 12) troubles.shift();
    };
    ctx.on("response", (r) => {
      done(r.request());
      if (r.status() >= 400) trouble(`${r.request().method()} ${new URL(r.url()).pathname} answered ${r.status()}`);
    });
    ctx.on("requestfailed", (r) => {
      done(r);
      trouble(`${r.method()} ${new URL(r.url()).pathname} failed: ${r.failure()?.errorText ?? "?"}`);
    });
    ctx.on("weberror", (e) => trouble(`page error: ${e.error().message}`));
    ctx.on("console", (m) => {
      if (m.type() === "error") trouble(`console error: ${m.text()}`);
    });
    const pending = () => [
      ...[...waiting.values()].map((w) => `browser: ${w.line} unanswered for ${Date.now() - w.at} ms`),
      ...troubles,
    ];
    let untrack = trackContext(pending);
    const unshow = trackPages(() => Promise.all(ctx.pages().map((page) => pageSnapshot(page))));
    ctx.on("close", unshow);
    // A test closes its contexts in `finally`, before the failure is reported: what each page
    // showed and still waited for is kept from that moment for the report.
    const close = ctx.close.bind(ctx);
    const parker = { park: async () => false, track: () => void (untrack = trackContext(pending)) };
    parkers.set(ctx, parker);
    ctx.close = async (options) => {
      const shown = await Promise.all(ctx.pages().map((page) => pageSnapshot(page)));
      keepClosedContext([...shown, ...pending()]);
      untrack();
      if (await parker.park()) return;
      return close(options);
    };
    ctx.on("close", () => untrack());
    return ctx;
  };
  return browser;
}

/** The address and the first words a page shows, for a failure report (bounded: a hung page still answers nothing). */
async function pageSnapshot(page: Page): Promise<string> {
  const read = page
    .evaluate(() => `${location.href} shows: ${(document.body?.textContent ?? "").replace(/\s+/g, " ").slice(0, 300)}`)
    .catch((e: Error) => `${page.url()} could not be read: ${e.message.split("\n")[0]}`);
  const late = new Promise<string>((done) => setTimeout(() => done(`${page.url()} did not answer within 1 s`), 1000));
  return `page ${await Promise.race([read, late])}`;
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * A fresh context signed in through the one-click link, like a person opening it; `live` sets
 * the page's poll/retry timings before the app starts.
 */
export async function signedIn(
  browser: Browser,
  url: string,
  token: string,
  viewport = DESKTOP,
  live?: { pollMs?: number; retryMs?: number },
): Promise<{ ctx: BrowserContext; page: Page }> {
  const key = JSON.stringify(viewport);
  const pool = live ? undefined : idle.get(browser);
  const at = pool?.findIndex((k) => k.key === key) ?? -1;
  const kept = at >= 0 ? pool?.splice(at, 1)[0] : undefined;
  let ctx: BrowserContext;
  let page: Page;
  if (kept) {
    ({ ctx, page } = kept);
    parkers.get(ctx)?.track();
  } else {
    ctx = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
    if (live)
      await ctx.addInitScript((t) => void ((window as unknown as { LOGLINE_LIVE: unknown }).LOGLINE_LIVE = t), live);
    page = await ctx.newPage();
    if (pool) keepable(browser, ctx, page, key);
  }
  page.on("pageerror", (e) => console.error("pageerror:", e.message));
  const watch = watchRequests(page);
  await page.goto(`${url}/signin?token=${encodeURIComponent(token)}`);
  await page
    .locator(".sidebar")
    .waitFor()
    .catch(async (e: Error) => {
      throw new Error(`${e.message}\n${await watch.report()}`);
    });
  watch.stop();
  return { ctx, page };
}

/**
 * What the page asked the server for and heard back while it started: when the app does not
 * come up, the failure says where it stopped (a request never answered, a refusal, an error in
 * the page) rather than only that an element never appeared.
 */
export function watchRequests(page: Page): { report: () => Promise<string>; stop: () => void } {
  const pending = new Map<Request, string>();
  const seen: string[] = [];
  const onRequest = (r: Request) => pending.set(r, `${r.method()} ${new URL(r.url()).pathname}`);
  const onFinished = (r: Request) => pending.delete(r);
  const onFailed = (r: Request) => {
    seen.push(`failed ${pending.get(r) ?? r.url()}: ${r.failure()?.errorText ?? "?"}`);
    pending.delete(r);
  };
  const onResponse = (r: Response) => seen.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  const onConsole = (m: ConsoleMessage) => seen.push(`console.${m.type()}: ${m.text()}`);
  page.on("request", onRequest);
  page.on("requestfinished", onFinished);
  page.on("requestfailed", onFailed);
  page.on("response", onResponse);
  page.on("console", onConsole);
  const stop = () => {
    page.off("request", onRequest);
    page.off("requestfinished", onFinished);
    page.off("requestfailed", onFailed);
    page.off("response", onResponse);
    page.off("console", onConsole);
  };
  const report = async () => {
    stop();
    const text = await page
      .evaluate(() => (document.body.textContent ?? "").replace(/\s+/g, " ").slice(0, 300))
      .catch((e: Error) => `(page unreadable: ${e.message})`);
    return [
      `at ${page.url()}`,
      `page says: ${text}`,
      `never answered: ${[...pending.values()].join(", ") || "none"}`,
      ...seen,
    ].join("\n");
  };
  return { report, stop };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Fills an input modal from whatever schema Office sent, choosing plausible values by label. */
export async function fillInputModal(page: Page, overrides: Record<string, string> = {}): Promise<void> {
  const fields = page.locator(".modal .form-field");
  const n = await fields.count();
  for (let i = 0; i < n; i++) {
    const f = fields.nth(i);
    const label = ((await f.locator("label").first().textContent()) ?? "").toLowerCase();
    const key = Object.keys(overrides).find((k) => label.includes(k));
    const select = f.locator("select");
    if (await select.count()) {
      const values = await select
        .locator("option")
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      await select.selectOption(key ? overrides[key]! : values[0]!);
      continue;
    }
    const box = f.locator("input:not([type=checkbox]), textarea");
    if (!(await box.count())) continue;
    // The pasted-link box stays empty unless asked for: the first place offered (Jitsi) needs no link.
    if (!key && label.includes("paste")) continue;
    const value = key
      ? overrides[key]!
      : label.includes("email") || label.includes("contact")
        ? "maria@acme.com"
        : label.includes("zone")
          ? "Europe/Lisbon"
          : label.includes("title")
            ? "Intro call with Maria"
            : label.includes("link") || label.includes("location")
              ? "Google Meet"
              : label.includes("duration") || label.includes("minutes")
                ? "30"
                : "Tue–Thu, 14:00–17:00";
    await box.fill(value);
  }
}

/** The trimmed text of the first match ("" when there is none yet), for expect.poll. */
export async function textOf(l: import("playwright-core").Locator): Promise<string> {
  return (
    (await l
      .first()
      .textContent({ timeout: 2000 })
      .catch(() => "")) ?? ""
  ).trim();
}

/** Types a message in the composer and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.click();
  await box.fill(text);
  await box.press("Enter");
}

/** The latest card of a type (`formalize`, `tracking`, `finished`) on the page. */
export const card = (page: Page, type: string) => page.locator(`article[data-card-type="job.${type}"]`).last();

/**
 * Sends a request and waits for the proposal it brings: one more Formalize card than before.
 * Waiting for "a" card would find an older job's card in the same chat and click that one.
 */
export async function askForJob(page: Page, text: string): Promise<void> {
  const before = await page.locator('article[data-card-type="job.formalize"]').count();
  await send(page, text);
  await expect
    .poll(() => page.locator('article[data-card-type="job.formalize"]').count(), { timeout: 15_000 })
    .toBe(before + 1);
}

/** Approve on the proposal, then wait for the tracking card that asks for details. */
export async function approveUntilWaiting(page: Page): Promise<void> {
  await card(page, "formalize").getByRole("button", { name: "Approve" }).click();
  await expect
    .poll(() => card(page, "tracking").getByRole("button", { name: "Provide info" }).isEnabled(), { timeout: 15_000 })
    .toBe(true);
}

/**
 * axe-core's critical and serious findings on the page, or only within the given selectors, one
 * "rule: targets" line each, so a failure names what to mend.
 */
export async function seriousAxe(page: Page, ...within: string[]): Promise<string[]> {
  const r = await within.reduce((axe, sel) => axe.include(sel), new AxeBuilder({ page })).analyze();
  return r.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
