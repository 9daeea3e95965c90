import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, signedIn } from "./harness.js";

/**
 * The Admin screen and the Quick actions menu with the keyboard only. After every act the
 * focused element is the documented one, never <body>:
 * - Revoke a token → the next token's Revoke (else the one before, else the Tokens heading);
 * - Access changed → the same select; Deactivate → its confirm dialog (Tab stays inside) → the
 *   person's Reactivate; Reactivate → the sign-in link to send them;
 * - Pause ↔ Resume → the same button with its new label; Save an agent → its Save button;
 * - Policies: Preview → the "What changes" heading; an error → the field it names; Save → Preview.
 * Each act is checked in the ledger.
 */
let server: TestServer;
let browser: Browser;
const T = "tnt_acme_001";
const ANA = "ent_human_ana";
const human = (name: string) => server.demo.humans.find((h) => h.display_name === name)!;

// A server of its own for each attempt: the Admin test changes roles, tokens and policies, and a
// retry must start from the demo workspace again, not from what the first attempt left.
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
beforeEach(async () => {
  server = await startTestServer();
}, 60_000);
afterEach(async () => {
  await server?.close();
});
afterAll(async () => {
  await browser?.close();
});

const ledger = (type: string) =>
  server.server.ledger.query({ tenant_id: T, limit: 1000 }).events.filter((e) => e.event_type === type) as any[];

/** The focused element, or "body". */
const focusDesc = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return "body";
    return `${a.tagName.toLowerCase()}|${a.getAttribute("aria-label") ?? a.textContent?.trim().slice(0, 50) ?? ""}`;
  });
const focusMatches = (page: Page, selector: string) =>
  page.evaluate((sel) => !!document.activeElement?.matches(sel), selector);

/** Tab (or Shift+Tab) until the element matching `selector` has focus; focus never falls to <body> on the way. */
async function tabTo(page: Page, selector: string, opts: { back?: boolean; max?: number } = {}) {
  for (let i = 0; i < (opts.max ?? 200); i++) {
    if (await focusMatches(page, selector)) return;
    await page.keyboard.press(opts.back ? "Shift+Tab" : "Tab");
    expect(await focusDesc(page), `tabbing to ${selector}`).not.toBe("body");
  }
  throw new Error(`Tab never reached ${selector} (now on ${await focusDesc(page)})`);
}
/** Waits until focus is on `selector` (the app moves it after a reload); never on <body> at the end. */
async function expectFocus(page: Page, selector: string) {
  await expect.poll(() => focusMatches(page, selector), { timeout: 5000, message: `focus on ${selector}` }).toBe(true);
}

describe("the Admin screen by keyboard", () => {
  test("tokens, members, agents and policies: every act by keys, focus where documented, each in the ledger", async () => {
    // Two spare sign-ins for Ana, so revoking one leaves a next Revoke to land on.
    const tokens = server.server.gateway.tokens;
    tokens.issue({ tenantId: T, entityId: ANA });
    tokens.issue({ tenantId: T, entityId: ANA });
    const { ctx, page } = await signedIn(browser, server.url, human("Dan").token);
    try {
      await page.goto(`${server.url}/admin`);
      await page.getByRole("heading", { name: "Policies" }).waitFor();
      await page
        .getByRole("button", { name: /Revoke Ana’s token/ })
        .first()
        .waitFor();
      await page.locator("#policy-modes-policy-message-edit-window").waitFor();

      // Tokens: Revoke by Enter; focus moves to the next token's Revoke.
      const anaRows = page.locator("tr[data-token]", { has: page.getByRole("button", { name: /Revoke Ana’s token/ }) });
      const first = await anaRows.first().getAttribute("data-token");
      await tabTo(page, `tr[data-token="${first}"] button`);
      await page.keyboard.press("Enter");
      await expect.poll(() => ledger("entity.tokens_revoked").map((e) => e.payload.token_id)).toEqual([first]);
      // The row leaves once the list has reloaded; focus is then on another token's Revoke.
      await expect.poll(() => page.locator(`tr[data-token="${first}"]`).count()).toBe(0);
      await expectFocus(page, "tr[data-token] button");
      expect(await page.evaluate(() => document.activeElement?.closest("tr")?.dataset.token)).not.toBe(first);

      // Members: Ana becomes an admin with the arrow keys; focus stays on her select.
      const access = 'select[aria-label="Access for Ana"]';
      await tabTo(page, access, { back: true });
      await page.keyboard.press("ArrowUp");
      await expect
        .poll(() => ledger("entity.role_changed").map((e) => e.payload.roles))
        .toEqual([["admin", "job_approver"]]);
      await expectFocus(page, access);

      // Deactivate: the confirm dialog takes focus and Tab never leaves it; confirming lands on Reactivate.
      await tabTo(page, '[data-member="Ana"] [data-act="deactivate"]');
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      for (let i = 0; i < 6; i++) {
        expect(
          await page.evaluate(() => !!document.activeElement?.closest("dialog[open]")),
          `Tab ${i} inside the dialog`,
        ).toBe(true);
        await page.keyboard.press("Tab");
      }
      await tabTo(page, "dialog[open] .btn-danger", { max: 10 });
      await page.keyboard.press("Enter");
      await expect
        .poll(() => ledger("entity.deactivated").map((e) => e.payload))
        .toEqual([{ entity_id: ANA, reason: "deactivated" }]);
      await expectFocus(page, '[data-member="Ana"] [data-act="reactivate"]');

      // Reactivate: focus on the sign-in link to send her.
      await page.keyboard.press("Enter");
      await expect.poll(() => ledger("entity.reactivated").length).toBe(1);
      await expectFocus(page, ".admin-members-link input");
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toMatch(/\/signin\?token=/);

      // Agents: Pause, then Resume, on the same button.
      const agent = '[data-agent="Office Scheduler"]';
      await tabTo(page, `${agent} [data-act="pause"]`);
      await page.keyboard.press("Enter");
      await expect.poll(() => ledger("agent.paused").length).toBe(1);
      await expectFocus(page, `${agent} [data-act="pause"]`);
      await expect.poll(() => focusDesc(page)).toBe("button|Resume Office Scheduler");
      await page.keyboard.press("Enter");
      await expect.poll(() => ledger("agent.resumed").length).toBe(1);
      await expect.poll(() => focusDesc(page)).toBe("button|Pause Office Scheduler");

      // Tools: take mail.send away (Space, Save), then allow it again; focus stays on Save.
      const mail = `${agent} input[type=checkbox][value="mail.send"]`;
      await page.locator(mail).waitFor();
      const calendarTools = [
        "calendar.create_invite",
        "calendar.record_answer",
        "calendar.move_invite",
        "calendar.cancel_invite",
        "calendar.decline_counter",
      ];
      for (const want of [calendarTools, [...calendarTools, "mail.send"]]) {
        await tabTo(page, mail, { back: true });
        await page.keyboard.press("Space");
        await tabTo(page, `${agent} [data-act="save"]`);
        await page.keyboard.press("Enter");
        await expect
          .poll(() => ledger("entity.registered").at(-1)?.payload)
          .toMatchObject({ entity_id: "ent_agent_scheduler", allowed_tools: want });
        await expectFocus(page, `${agent} [data-act="save"]`);
      }

      // Policies: a bad number → focus on that field, marked invalid; a good one → preview → save.
      const mode = "#policy-modes-policy-message-edit-window";
      const win = "#policy-params-message-edit-window-seconds";
      await tabTo(page, mode);
      await page.keyboard.press("ArrowDown");
      expect(await page.locator(mode).inputValue()).toBe("warn");
      await tabTo(page, win);
      await page.keyboard.press("Control+A");
      await page.keyboard.type("5");
      await tabTo(page, ".admin-policies button[type=submit]");
      await page.keyboard.press("Enter");
      await expectFocus(page, win);
      expect(await page.locator(win).getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#policies-error").textContent()).toMatch(/from 60 to 2592000/);

      await page.keyboard.press("Control+A");
      await page.keyboard.type("600");
      await tabTo(page, ".admin-policies button[type=submit]");
      await page.keyboard.press("Enter");
      await expectFocus(page, "#policies-preview-title");
      expect(await page.locator(".policy-preview li").allTextContents()).toEqual([
        "policy.message_edit_window: Enforce (refuse) → Warn (allow and record)",
        "message_edit_window_seconds: 86,400 → 600",
      ]);
      expect(ledger("policy.overrides_set")).toHaveLength(0);
      await tabTo(page, ".policy-preview .btn-primary", { max: 5 });
      await page.keyboard.press("Enter");
      await expect
        .poll(() => ledger("policy.overrides_set").map((e) => e.payload))
        .toEqual([{ modes: { "policy.message_edit_window": "warn" }, params: { message_edit_window_seconds: 600 } }]);
      await expectFocus(page, ".admin-policies button[type=submit]");
      await expect
        .poll(() => page.evaluate(() => document.getElementById("announcer")?.textContent ?? ""))
        .toContain("2 policy changes saved");
      expect(await page.locator(".policy-preview").count()).toBe(0);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});

describe("the Quick actions menu by keyboard", () => {
  test("menu button pattern: open on first or last item, arrows, Home/End, type-ahead, Escape back to the button, Tab closes", async () => {
    const { ctx, page } = await signedIn(browser, server.url, human("Dan").token);
    try {
      await page.goto(`${server.url}/c/cnv_9f2a`);
      const box = page.getByRole("textbox", { name: "Message" });
      await box.waitFor();
      // From the message box, back to the menu button.
      await tabTo(page, "#composer-input");
      // Back from the message box past the composer's other buttons (attach, emoji).
      for (let i = 0; i < 5 && (await focusDesc(page)) !== "button|Quick actions"; i++)
        await page.keyboard.press("Shift+Tab");
      expect(await focusDesc(page)).toBe("button|Quick actions");
      const button = page.locator("#quick-menu-button");
      expect(await button.getAttribute("aria-haspopup")).toBe("menu");
      expect(await button.getAttribute("aria-expanded")).toBe("false");

      await page.keyboard.press("Enter");
      await expect.poll(() => focusDesc(page)).toBe("button|Schedule a meeting");
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      expect(
        await page.getByRole("menu", { name: "Quick actions" }).getByRole("menuitem").count(),
      ).toBeGreaterThanOrEqual(3);
      await page.keyboard.press("ArrowDown");
      expect(await focusDesc(page)).toBe("button|Send an invoice");
      await page.keyboard.press("End");
      const last = await focusDesc(page);
      await page.keyboard.press("Home");
      expect(await focusDesc(page)).toBe("button|Schedule a meeting");
      await page.keyboard.press("ArrowUp");
      expect(await focusDesc(page)).toBe(last);
      await page.keyboard.press("ArrowDown");
      expect(await focusDesc(page)).toBe("button|Schedule a meeting");
      await page.keyboard.press("f");
      expect(await focusDesc(page)).toBe("button|Follow up with a customer");

      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByRole("menu").count()).toBe(0);
      expect(await focusDesc(page)).toBe("button|Quick actions");
      expect(await button.getAttribute("aria-expanded")).toBe("false");

      await page.keyboard.press("ArrowUp");
      await expect.poll(() => focusDesc(page)).toBe(last);
      await page.keyboard.press("Escape");
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => focusDesc(page)).toBe("button|Schedule a meeting");
      await page.keyboard.press("Tab");
      await expect.poll(() => page.getByRole("menu").count()).toBe(0);
      expect(await focusDesc(page)).toBe("button|Emoji");

      // Space opens it too; Enter on an item starts the message with it, in the box.
      await page.keyboard.press("Shift+Tab");
      await expect.poll(() => focusDesc(page)).toBe("button|Quick actions");
      await page.keyboard.press("Space");
      await expect.poll(() => focusDesc(page)).toBe("button|Schedule a meeting");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("composer-input");
      expect(await box.inputValue()).toBe("Can you schedule a 30-min call with ");
      expect(await page.getByRole("menu").count()).toBe(0);
    } finally {
      await ctx.close();
    }
  }, 30_000);
});
