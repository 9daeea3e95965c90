import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { launchBrowser, signedIn } from "./harness.js";

/**
 * The Admin screen in a real browser: Dan (the owner) makes Ana an admin, deactivates her (her
 * open page is signed out) and reactivates her with a link, pauses the agent and takes a tool
 * away from it, revokes a token; each act checked in the ledger; axe finds nothing critical or
 * serious. Ana, a member, has no Admin entry.
 */
let server: TestServer;
let browser: Browser;
const T = "tnt_acme_001";
const human = (name: string) => server.demo.humans.find((h) => h.display_name === name)!;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The tools the agent's latest registration allows. */
const allowedTools = async () =>
  ((await ledger("entity.registered")).at(-1)?.payload as { allowed_tools?: string[] } | undefined)?.allowed_tools;
const ledger = async (type: string) =>
  (await server.server.ledger.query({ tenant_id: T, limit: 1000 })).events.filter((e) => e.event_type === type);
async function axeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === "critical" || v.impact === "serious")
      .map((v) => `${v.id}: ${v.nodes[0]?.target}`),
  ).toEqual([]);
}

describe("Admin (owners and admins)", () => {
  test("members, agents and tokens from one screen, each act in the ledger", async () => {
    const ana = await signedIn(browser, server.url, human("Ana").token);
    expect(await ana.page.getByRole("link", { name: "Admin" }).count()).toBe(0);

    const { ctx, page } = await signedIn(browser, server.url, human("Dan").token);
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByRole("heading", { name: "Admin", level: 2 }).waitFor();
    await page.getByRole("combobox", { name: "Access for Ana" }).waitFor();
    await page.getByRole("row", { name: /Ana/ }).first().waitFor();
    await axeClean(page);

    // Access: Ana becomes an admin.
    await page.getByRole("combobox", { name: "Access for Ana" }).selectOption("admin");
    await expect
      .poll(async () => (await ledger("entity.role_changed")).map((e: any) => e.payload.roles))
      .toEqual([["admin", "job_approver"]]);

    // Deactivate: her open page loses its session.
    await page.getByRole("button", { name: "Deactivate Ana" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
    await page.locator('[data-member="Ana"] .pill', { hasText: "Deactivated" }).waitFor();
    expect((await ledger("entity.deactivated")).map((e: any) => e.payload)).toEqual([
      { entity_id: "ent_human_ana", reason: "deactivated" },
    ]);
    const res = await ana.page.evaluate(async () => (await fetch("/v1/session")).status);
    expect(res).toBe(401);

    // Reactivate: a sign-in link shown once, which signs her in again as herself.
    await page.getByRole("button", { name: "Reactivate Ana" }).click();
    const link = await page.getByRole("textbox", { name: "Sign-in link for Ana" }).inputValue();
    await ana.page.goto(link);
    await ana.page.locator(".sidebar").waitFor();
    expect(await ana.page.evaluate(async () => (await (await fetch("/v1/session")).json()).entity_id)).toBe(
      "ent_human_ana",
    );

    // Agents: take mail.send away, pause it; it says Paused.
    const agent = page.locator('[data-agent="Office Scheduler"]');
    await agent.getByRole("checkbox", { name: /mail\.send/ }).uncheck();
    await agent.getByRole("button", { name: "Save Office Scheduler" }).click();
    await expect
      .poll(async () => (await ledger("entity.registered")).at(-1)?.payload)
      .toMatchObject({
        entity_id: "ent_agent_scheduler",
        allowed_tools: [
          "calendar.create_invite",
          "calendar.record_answer",
          "calendar.move_invite",
          "calendar.cancel_invite",
          "calendar.decline_counter",
        ],
      });
    await page.getByRole("button", { name: "Pause Office Scheduler" }).click();
    await page.locator('[data-agent="Office Scheduler"] .pill', { hasText: "Paused" }).waitFor();
    expect(await ledger("agent.paused")).toHaveLength(1);
    await axeClean(page);

    // Tokens: revoke Ana's new one (the list as it is now).
    await page.reload();
    await page
      .getByRole("button", { name: /Revoke Ana’s token/ })
      .first()
      .waitFor();
    const before = (await ledger("entity.tokens_revoked")).length;
    await page
      .getByRole("button", { name: /Revoke Ana’s token/ })
      .first()
      .click();
    await expect.poll(async () => (await ledger("entity.tokens_revoked")).length).toBe(before + 1);
    expect(await ana.page.evaluate(async () => (await fetch("/v1/session")).status)).toBe(401);

    // The Outbox and Tools are reached from here.
    await page.getByRole("link", { name: "Tools" }).click();
    await page.getByRole("heading", { name: "Tools" }).waitFor();
    await ctx.close();
    await ana.ctx.close();
  });

  test("an agent's list that answers late after a save never undoes what the admin ticked meanwhile", async () => {
    const { ctx, page } = await signedIn(browser, server.url, human("Dan").token);
    await page.goto(`${server.url}/admin`);
    const agent = page.locator('[data-agent="Office Scheduler"]');
    const mail = agent.getByRole("checkbox", { name: /mail\.send/ });
    await mail.waitFor();
    if (!(await mail.isChecked())) {
      await mail.check();
      await agent.getByRole("button", { name: "Save Office Scheduler" }).click();
      await expect.poll(allowedTools).toContain("mail.send");
    }
    // The list the page reloads after a save is held until the admin has ticked the box again.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/v1/admin/agents", async (route) => {
      await held;
      await route.continue();
    });
    await mail.uncheck();
    await agent.getByRole("button", { name: "Save Office Scheduler" }).click();
    await expect.poll(allowedTools).not.toContain("mail.send");
    await mail.check();
    const late = page.waitForResponse((r) => r.url().endsWith("/v1/admin/agents"));
    release();
    await late;
    await page.unroute("**/v1/admin/agents");
    // The late list says mail.send is off; the box the admin ticked stays ticked, and saving keeps it.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await mail.isChecked()).toBe(true);
    await agent.getByRole("button", { name: "Save Office Scheduler" }).click();
    await expect.poll(allowedTools).toContain("mail.send");
    await ctx.close();
  });
});
