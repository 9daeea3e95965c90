import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { catalog, translator } from "../../src/shared/i18n.js";
import {
  ARTIFACTS,
  card,
  DESKTOP,
  fillInputModal,
  launchBrowser,
  type RunningServer,
  shot,
  startServer,
  textOf,
  seriousAxe,
} from "./harness.js";
import { demoPerson } from "../support/server.js";

// The words the page must show, read from the catalogs themselves (never re-typed here).
/** A catalog's message by key (a missing key fails the test, never reads as undefined). */
const words =
  (lang: "en" | "pt") =>
  (key: string): string => {
    const text = catalog(lang)[key];
    if (text === undefined) throw new Error(`no "${key}" in locales/${lang}`);
    return text;
  };
const pt = words("pt");
const en = words("en");
const tPt = translator("pt");
const ZONE = "Europe/Lisbon";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ demo: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const dan = () => demoPerson(server, "Dan");

describe("the Messenger in Portuguese", () => {
  test("a pt-PT browser walks the golden path in Portuguese: words, dates and the page's language; the profile switches it to English live", async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: "pt-PT", timezoneId: ZONE });
    const page = await ctx.newPage();
    page.on("pageerror", (e) => console.error("pageerror:", e.message));
    try {
      await page.goto(`${server.url}/signin?token=${encodeURIComponent(dan().token)}`);
      await page.locator(".sidebar").waitFor();
      await page.goto(`${server.url}/c/${server.demo!.conversation_id}`);

      // The browser's language decides (no profile language yet): the page is Portuguese.
      const box = page.getByRole("textbox", { name: pt("composer.message") });
      await box.waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("pt");
      expect(await box.getAttribute("placeholder")).toBe(pt("composer.placeholder"));
      expect(await page.getByRole("button", { name: pt("quickMenu.button") }).count()).toBe(1);
      expect(await page.getByRole("complementary", { name: pt("list.conversations") }).count()).toBe(1);
      await expect.poll(() => page.title()).toMatch(/ · LogLine$/);

      // Portuguese in the profile too, so the agents speak it (they read the profile, not the browser).
      await page.getByRole("button", { name: pt("list.profile") }).click();
      const mine = page.getByRole("dialog", { name: pt("profile.title") });
      await mine.getByLabel(pt("profile.language")).selectOption("pt");
      await mine.getByRole("button", { name: pt("profile.save") }).click();
      await expect.poll(() => page.evaluate(async () => (await (await fetch("/v1/session")).json()).locale)).toBe("pt");
      await page.keyboard.press("Escape");
      await mine.waitFor({ state: "hidden" });

      await box.fill("Marca uma reunião de 30 minutos com a Maria amanhã às 15h");
      await box.press("Enter");
      const formalize = card(page, "formalize");
      await formalize.waitFor({ timeout: 15_000 });
      // The agent's own words are Portuguese: the card's title and its Approve button.
      await expect.poll(() => textOf(formalize)).toContain("Marcar reunião com Maria");
      expect(await formalize.getByRole("button", { name: pt("office.card.button.approve") }).count()).toBe(1);
      await expect.poll(() => textOf(formalize.locator(".card-kind"))).toBe(pt("card.kind.job.formalize"));
      await expect.poll(() => textOf(formalize.locator(".pill"))).toBe(pt("job.state.proposed"));
      expect(await formalize.getByRole("button", { name: pt("card.details") }).count()).toBe(1);
      expect(await formalize.getByRole("group", { name: pt("buttons.group") }).count()).toBe(1);
      // Today's separator and the card's time come from the catalog and Intl for pt-PT.
      await expect.poll(() => textOf(page.locator(".timeline"))).toContain(pt("time.today"));
      expect(await seriousAxe(page)).toEqual([]);
      await shot(page, "pt-01-formalize-card");

      // Approve.
      await formalize.locator('button[data-action="job.approve"]').click();
      const tracking = card(page, "tracking");
      const provide = tracking.locator('button[data-action="job.provide_input"]');
      await expect.poll(() => provide.isVisible(), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => textOf(tracking.locator(".pill"))).toBe(pt("job.state.waiting_input"));
      await provide.click();
      await page.getByRole("dialog").waitFor();
      expect(
        await page
          .getByRole("dialog")
          .getByRole("button", { name: pt("common.cancel") })
          .count(),
      ).toBe(1);
      // Portuguese labels: "Fuso horário" is the zone; the pasted-link box ("Cole o link") stays empty.
      await fillInputModal(page, { fuso: "Europe/Lisbon", cole: "" });
      await page.getByRole("dialog").locator('button[type="submit"]').click();
      await page.getByRole("dialog").waitFor({ state: "detached" });

      const finished = card(page, "finished");
      await finished.waitFor({ timeout: 20_000 });
      await expect.poll(() => textOf(finished.locator(".card-kind"))).toBe(pt("card.kind.job.finished"));
      expect(await finished.getByRole("link", { name: pt("file.download") }).count()).toBeGreaterThan(0);

      // The drawer: its name, the approval in words, and a date written by Intl for pt-PT.
      await finished.getByRole("button", { name: pt("card.details") }).click();
      const drawer = page.getByRole("dialog", { name: pt("drawer.label") });
      await drawer.locator(".drawer-timeline").waitFor();
      const showAll = drawer.getByRole("button", { name: /Mostrar todos/ });
      if (await showAll.isVisible()) await showAll.click();
      await expect.poll(() => textOf(drawer)).toContain(tPt("tl.approval.approved", { name: "Dan" }));
      const month = new Intl.DateTimeFormat("pt-PT", { month: "long", timeZone: ZONE }).format(new Date());
      await expect.poll(() => textOf(drawer.locator(".drawer-section").first())).toContain(` de ${month} de `);
      expect(await drawer.getByRole("region", { name: pt("drawer.timeline") }).count()).toBe(1);
      expect(await seriousAxe(page)).toEqual([]);
      await shot(page, "pt-02-job-drawer");
      await drawer.getByRole("button", { name: pt("drawer.close") }).click();

      // The profile's Language: English, saved, re-renders at once and survives a reload.
      await page.getByRole("button", { name: pt("list.profile") }).click();
      const profile = page.getByRole("dialog", { name: pt("profile.title") });
      const language = profile.getByLabel(pt("profile.language"));
      expect(await language.locator("option").allTextContents()).toEqual([
        pt("profile.language_auto"),
        "English",
        "Português",
      ]);
      await language.selectOption("en");
      await profile.getByRole("button", { name: pt("profile.save") }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("en");
      await page.keyboard.press("Escape");
      await expect
        .poll(() => page.getByRole("textbox", { name: en("composer.message") }).getAttribute("placeholder"))
        .toBe(en("composer.placeholder"));
      await page.reload();
      await page.getByRole("textbox", { name: en("composer.message") }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    } finally {
      await ctx.close();
    }
  });
});
