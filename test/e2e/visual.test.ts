import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  approveUntilWaiting,
  askForJob,
  card,
  DESKTOP,
  fillInputModal,
  launchBrowser,
  PHONE,
  signedIn,
  startServer,
  type RunningServer,
} from "./harness.js";
import { demoPerson } from "../support/server.js";

/**
 * What everyone sees, in light and dark, on a desktop, a phone and a 320 px screen: axe-core
 * (colour contrast included) finds nothing critical or serious in any main state, and nothing
 * is wider than the screen. Then the theme choice (applied before the first paint), forced
 * colours and reduced motion.
 */
let server: RunningServer;
let browser: Browser;
const NARROW = { width: 320, height: 640 };
const dan = () => demoPerson(server, "Dan");
const chatUrl = () => `${server.url}/c/${server.demo!.conversation_id}`;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ demo: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * axe-core's critical and serious findings, as "rule: target" lines; `within` scopes the scan,
 * `rules` limits it to those rules.
 */
async function seriousIssues(page: Page, within?: string, rules?: string[]): Promise<string[]> {
  let axe = new AxeBuilder({ page });
  if (within) axe = axe.include(within);
  if (rules) axe = axe.withRules(rules);
  const r = await axe.analyze();
  return r.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`),
    );
}

/**
 * What sticks out of the screen or is cut off: visible elements reaching past either edge
 * (outside a box that scrolls sideways on purpose), and boxes whose content is wider than they
 * are and hidden (ellipsis truncation, which says it is cut, excepted).
 */
function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > vw) out.push(`page ${document.documentElement.scrollWidth} > ${vw}`);
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${(el.textContent ?? "").trim().slice(0, 30)}"`;
    const scrollsSideways = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if ((x === "auto" || x === "scroll") && p.scrollWidth > p.clientWidth) return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest(".visually-hidden")) continue;
      const st = getComputedStyle(el);
      if (st.visibility === "hidden" || st.position === "fixed") {
        if (r.right > vw + 1 || r.left < -1) out.push(`${name(el)} at ${Math.round(r.left)}–${Math.round(r.right)}`);
        continue;
      }
      if ((r.right > vw + 1 || r.left < -1) && !scrollsSideways(el))
        out.push(`${name(el)} at ${Math.round(r.left)}–${Math.round(r.right)}`);
      if (
        (st.overflowX === "hidden" || st.overflowX === "clip") &&
        st.textOverflow !== "ellipsis" &&
        el.scrollWidth > el.clientWidth + 1
      )
        out.push(`${name(el)} clips ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return out;
  });
}

// One job the whole way (a proposal, an update and a result, the first two now earlier steps)
// and a second one still proposed: every card kind, live and stale, in one conversation. The
// tests after this one look at that conversation.
test("the input modal, on the way through a job, has no serious axe finding", async () => {
  const { ctx, page } = await signedIn(browser, server.url, dan().token);
  try {
    await askForJob(page, "Can you schedule a 30-min call with Maria next week?");
    await approveUntilWaiting(page);
    await card(page, "tracking").getByRole("button", { name: "Provide info" }).click();
    await page.getByRole("dialog").waitFor();
    await fillInputModal(page);
    expect(await seriousIssues(page)).toEqual([]);
    await page.getByRole("dialog").getByRole("button", { name: "Provide info" }).click();
    await card(page, "finished").waitFor({ timeout: 20_000 });
    await askForJob(page, "Can you schedule a call with Bruno tomorrow?");
  } finally {
    await ctx.close();
  }
});

type Viewport = { width: number; height: number };
const SCREENS: Array<[string, Viewport]> = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
  ["320 px", NARROW],
];

/** A context that follows the system's colour scheme, as a person's browser does. */
async function contextFor(theme: "light" | "dark", viewport: Viewport): Promise<BrowserContext> {
  return browser.newContext({ viewport, colorScheme: theme });
}

const THEMES = ["light", "dark"] as const;
/** axe-core's rules whose verdict depends on colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

test.each(SCREENS)(
  "%s, light and dark: sign-in, list, chat with every card, drawer and a modal have no serious axe finding (phone, desktop) and nothing off-screen (320 px)",
  async (_label, viewport) => {
    const found: Record<string, string[]> = {};
    // Each state in both themes: the page follows the system's scheme live, so one page load
    // serves both. An overlay is scanned on its own: the page behind it was scanned the state before.
    // A theme changes colours only (the same elements, names and roles), so the second theme is
    // scanned with the rules that read colours; the first gets every rule.
    const check = async (page: Page, state: string, within?: string) => {
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        const rules = theme === THEMES[0] ? undefined : COLOUR_RULES;
        // At 320 px what can differ from the phone's 390 is reflow: that is checked there, axe at 390.
        const issues =
          viewport === NARROW
            ? (await overflow(page)).map((o) => `overflow: ${o}`)
            : await seriousIssues(page, within, rules);
        if (issues.length) found[`${state} (${theme})`] = issues;
      }
    };
    const phone = viewport !== DESKTOP;

    const anon = await browser.newContext({ viewport });
    try {
      const page = await anon.newPage();
      await page.goto(`${server.url}/signin`);
      await page.getByRole("heading").first().waitFor();
      await check(page, "sign-in");
    } finally {
      await anon.close();
    }

    const ctx = await browser.newContext({ viewport });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan().token)}`);
      await page.locator(".sidebar").waitFor();
      if (phone) {
        await page.goto(`${server.url}/`);
        await page.locator(".conv-row").first().waitFor();
        await check(page, "list");
      }
      await page.goto(chatUrl());
      await expect.poll(() => page.locator("article[data-card-type]").count()).toBeGreaterThanOrEqual(4);
      await expect.poll(() => page.locator(".card-stale").count()).toBeGreaterThanOrEqual(2);
      await check(page, phone ? "chat" : "list and chat");

      await card(page, "finished")
        .getByRole("button", { name: /Job details/ })
        .click();
      await page.getByRole("dialog", { name: "Job details" }).locator(".drawer-timeline").waitFor();
      await check(page, "drawer", ".drawer");
      if (!phone) {
        // Beside the open drawer the chat's name is still read whole, not cut to a letter.
        const title = page.locator(".chat-head h1");
        expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      }

      await page.goto(phone ? `${server.url}/` : chatUrl());
      await page.getByRole("button", { name: "Your profile" }).click();
      await page.getByRole("dialog", { name: "Your profile" }).waitFor();
      await check(page, "profile dialog", ".modal");
    } finally {
      await ctx.close();
    }
    expect(found).toEqual({});
  },
  240_000,
);

describe("the theme choice", () => {
  test("Dark in Your profile applies at once, is there before the first paint after a reload, and System follows the system again", async () => {
    const ctx = await contextFor("light", DESKTOP);
    // What the page looks like when <body> first appears (before anything can be painted).
    await ctx.addInitScript(() => {
      new MutationObserver((_m, obs) => {
        if (!document.body) return;
        (window as unknown as { atBody: unknown }).atBody = {
          theme: document.documentElement.dataset.theme,
          bg: getComputedStyle(document.documentElement).backgroundColor,
        };
        obs.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan().token)}`);
      await page.locator(".sidebar").waitFor();
      const bg = () => page.evaluate(() => getComputedStyle(document.querySelector(".sidebar")!).backgroundColor);
      const lightBg = await bg();
      expect(await page.evaluate(() => (window as unknown as { atBody: unknown }).atBody)).toEqual({
        theme: "light",
        bg: "rgb(238, 241, 244)",
      });

      await page.getByRole("button", { name: "Your profile" }).click();
      const dialog = page.getByRole("dialog", { name: "Your profile" });
      expect(await dialog.getByRole("radio", { name: "System" }).isChecked()).toBe(true);
      await dialog.getByRole("radio", { name: "Dark" }).check();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      expect(await bg()).not.toBe(lightBg);
      expect(await page.evaluate(() => localStorage.getItem("logline.theme"))).toBe("dark");

      await page.reload();
      await page.locator(".sidebar").waitFor();
      expect(await page.evaluate(() => (window as unknown as { atBody: unknown }).atBody)).toEqual({
        theme: "dark",
        bg: "rgb(12, 19, 23)",
      });
      expect(
        await page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute("content")),
      ).toBe("#1b262d");

      // Light stays light while the system turns dark; System then follows it, live.
      await page.getByRole("button", { name: "Your profile" }).click();
      await dialog.getByRole("radio", { name: "Light" }).check();
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
      await dialog.getByRole("radio", { name: "System" }).check();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
      expect(await page.evaluate(() => localStorage.getItem("logline.theme"))).toBeNull();
      await page.emulateMedia({ colorScheme: "light" });
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    } finally {
      await ctx.close();
    }
  });
});

describe("forced colours and reduced motion", () => {
  test("in forced colours a selected chip, the open conversation and the focus ring are still drawn", async () => {
    const empty = await startServer({ demo: false });
    const ctx = await browser.newContext({ viewport: DESKTOP });
    try {
      const page = await ctx.newPage();
      await page.emulateMedia({ forcedColors: "active" });
      await page.goto(`${empty.url}/`);
      await page.getByRole("link", { name: "Create a workspace" }).click();
      await page.getByLabel("Business name").fill("Rivera Plumbing");
      await page.getByLabel("Your name").fill("Dan Rivera");
      await page.getByRole("button", { name: "Create workspace" }).click();
      await page.getByRole("heading", { name: "Invite a coworker" }).waitFor();
      await page.getByRole("button", { name: "Skip for now" }).click();
      await page.getByRole("heading", { name: "Add an agent coworker" }).waitFor();

      const chips = page.locator(".chip-toggle");
      const look = (i: number) =>
        chips.nth(i).evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            outline: s.outlineStyle === "none" ? "none" : `${s.outlineStyle} ${s.outlineWidth}`,
            mark: getComputedStyle(el, "::before").content,
          };
        });
      const selected = await chips.evaluateAll((els) => els.map((el) => el.classList.contains("on")));
      const on = selected.indexOf(true);
      const off = selected.indexOf(false);
      expect(on).toBeGreaterThanOrEqual(0);
      expect(off).toBeGreaterThanOrEqual(0);
      // Backgrounds are gone in this mode; the selected chip keeps an outline and a ✓ mark.
      expect(await look(on)).toEqual({ outline: "solid 2px", mark: '"✓ "' });
      expect(await look(off)).toEqual({ outline: "none", mark: "none" });

      // Space on a focused chip selects it: now it is drawn as selected too.
      await chips.nth(off).locator("input").focus();
      await page.keyboard.press("Space");
      await expect.poll(() => look(off)).toEqual({ outline: "solid 3px", mark: '"✓ "' });

      // The focus ring on a button is a real outline in a system colour.
      await page.getByRole("button", { name: "Add agent and start chatting" }).focus();
      const ring = await page.evaluate(() => {
        const s = getComputedStyle(document.activeElement!);
        return { style: s.outlineStyle, width: s.outlineWidth };
      });
      expect(ring).toEqual({ style: "solid", width: "3px" });

      await page.getByLabel("Name", { exact: true }).fill("Office Scheduler");
      await page.getByRole("button", { name: "Add agent and start chatting" }).click();
      await page.getByRole("textbox", { name: "Message" }).waitFor();
      const active = await page
        .locator(".conv-row.active")
        .evaluate((el) => `${getComputedStyle(el).outlineStyle} ${getComputedStyle(el).outlineWidth}`);
      expect(active).toBe("solid 2px");
      expect(await seriousIssues(page)).toEqual([]);
    } finally {
      await ctx.close();
      await empty.close();
    }
  });

  test("with reduced motion nothing animates; without it the spinner turns", async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/signin`);
      await page.getByRole("heading").first().waitFor();
      const running = () =>
        page.evaluate(() => {
          const s = document.createElement("span");
          s.className = "spinner";
          document.body.append(s);
          const n = document.getAnimations().length;
          s.remove();
          return n;
        });
      expect(await running()).toBeGreaterThan(0);
      await page.emulateMedia({ reducedMotion: "reduce" });
      expect(await running()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
