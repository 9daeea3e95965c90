import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  approveUntilWaiting,
  ARTIFACTS,
  askForJob,
  card,
  DESKTOP,
  fillInputModal,
  launchBrowser,
  PHONE,
  send,
  shot,
  signedIn,
  startServer,
  type RunningServer,
  textOf,
} from "./harness.js";
import { demoPerson } from "../support/server.js";

const ASK = "Can you schedule a 30-min call with Maria next week?";

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
const ana = () => demoPerson(server, "Ana");

async function openChatWithAgent(page: Page, conversationId?: string): Promise<void> {
  if (conversationId) await page.goto(`${server.url}/c/${conversationId}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
}

describe("Messenger in a real browser", () => {
  test("golden path by clicks and typing: propose → approve → provide info → finished with invite → accept; drawer; reload", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    // The sign-in link opens straight into Dan's chat with Office Scheduler.
    await expect.poll(() => page.url()).toContain(`/c/${server.demo!.conversation_id}`);
    await openChatWithAgent(page);
    await expect.poll(() => textOf(page.locator(".chat-head h1"))).toMatch("Office Scheduler");
    await shot(page, "01-desktop-chat-empty");

    await send(page, ASK);
    await page.locator(".msg-out .text", { hasText: ASK }).first().waitFor();
    await card(page, "formalize").waitFor({ timeout: 15_000 });
    const formalize = card(page, "formalize");
    for (const label of ["Approve", "Reject", "Request changes", "Ask in chat"])
      await expect.poll(() => formalize.getByRole("button", { name: label }).isVisible()).toBe(true);
    await shot(page, "02-desktop-formalize-card");

    await approveUntilWaiting(page);
    // The optimistic bubble says what Dan did.
    await page.locator(".msg-action", { hasText: "approved" }).first().waitFor();
    // The proposal's moment has passed: its buttons are done, not clickable.
    await expect.poll(() => formalize.getByRole("button", { name: /Approve/ }).isDisabled()).toBe(true);
    const tracking = card(page, "tracking");
    await expect.poll(() => tracking.getByRole("button", { name: "Dispute" }).isVisible()).toBe(true);
    await shot(page, "03-desktop-tracking-waiting");

    await tracking.getByRole("button", { name: "Provide info" }).click();
    await page.getByRole("dialog").waitFor();
    await shot(page, "04-desktop-input-modal");
    await fillInputModal(page);
    await page.getByRole("dialog").getByRole("button", { name: "Provide info" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });

    const finished = card(page, "finished");
    await finished.waitFor({ timeout: 20_000 });
    await expect.poll(() => textOf(finished.locator(".artifact-title").first())).toMatch(/\.ics|invite/i);
    await expect
      .poll(() =>
        finished
          .getByRole("link", { name: "Download" })
          .first()
          .getAttribute("href")
          .then((v) => v ?? ""),
      )
      .toMatch(/\/v1\//);
    const jobId = await finished.getAttribute("data-job-id");
    expect(jobId).toBeTruthy();
    // The demo has no mail server or calendar: the card says so, and the only links are ones a tool recorded.
    await expect
      .poll(() => textOf(finished))
      .toMatch(/Not emailed: mail is not set up on this server\. Download invite\.ics/);
    await expect.poll(() => textOf(finished)).toMatch(/Not added to any calendar/);
    await expect.poll(() => finished.locator("a[href^='https://meet.jit.si/']").count()).toBeGreaterThan(0);
    await shot(page, "05-desktop-finished-card");
    await finished.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => textOf(finished.getByRole("button", { name: /Accept/ })), { timeout: 10_000 }).toMatch(/✓/);

    // The drawer shows the whole chain.
    await page.locator(".chat-head .job-chip, article[data-card-type='job.finished'] .card-details").last().click();
    const drawer = page.getByRole("dialog", { name: "Job details" });
    await drawer.locator(".drawer-timeline").waitFor();
    await expect.poll(() => drawer.locator(".tl").count()).toBeGreaterThan(0);
    // The last 12 items show first; "Show all" opens the whole chain.
    const showAll = drawer.getByRole("button", { name: /Show all/ });
    if (await showAll.isVisible()) await showAll.click();
    await expect.poll(() => textOf(drawer)).toMatch(/Approved by Dan/);
    await expect.poll(() => textOf(drawer)).toMatch(/calendar\.create_invite/);
    await expect.poll(() => textOf(drawer)).toMatch(/Waiting/);
    await expect.poll(() => textOf(drawer.locator(".drawer-head .pill"))).toMatch(/Done/i);
    expect(page.url()).toMatch(/\/jobs\/job_/);
    await drawer.locator(".tl-tool summary").first().click();
    await drawer.locator(".audit summary").first().click();
    await shot(page, "06-desktop-job-drawer");

    // Reload: the same timeline, nothing twice.
    await page.goto(`${server.url}/c/${server.demo!.conversation_id}`);
    await card(page, "finished").waitFor();
    const before = await page
      .locator(".timeline .item[data-event-id]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-event-id")));
    await page.reload();
    await card(page, "finished").waitFor();
    // The stream is open (the "Connecting…" banner is gone): what it replays is on the page.
    await expect.poll(() => page.locator(".conn").count(), { timeout: 15_000 }).toBe(0);
    const after = await page
      .locator(".timeline .item[data-event-id]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-event-id")));
    expect(after).toEqual(before);
    expect(new Set(after).size).toBe(after.length);

    // Narrow screen: list, chat, and the drawer as a bottom sheet.
    await page.setViewportSize(PHONE);
    await shot(page, "07-phone-chat-cards");
    await page.goto(`${server.url}/`);
    await page.locator(".conv-row").first().waitFor();
    await shot(page, "08-phone-conversation-list");
    await page.goto(`${server.url}/jobs/${jobId}`);
    await page.getByRole("dialog", { name: "Job details" }).locator(".drawer-timeline").waitFor();
    await shot(page, "09-phone-job-drawer");
    await page.setViewportSize(DESKTOP);
    await ctx.close();
  });

  test("the Outbox: admins see what was emailed and that mail is not set up; members have no Outbox; your own email", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    await page.getByRole("link", { name: "Admin" }).click();
    await page.getByRole("link", { name: "Outbox" }).click();
    await page.getByRole("heading", { name: "Outbox" }).waitFor();
    await expect
      .poll(() => textOf(page.getByRole("status").filter({ hasText: "Mail is not set up" })))
      .toMatch(/SMTP_URL/);
    // Your profile: your own address, for the invites you ask for; a bad one is refused in place.
    await page.getByRole("button", { name: "Your profile" }).click();
    const dialog = page.getByRole("dialog", { name: "Your profile" });
    await dialog.getByLabel("Your email").fill("dan@@acme");
    await dialog.evaluate((d) => (d.querySelector<HTMLFormElement>("form:has(#my_email)")!.noValidate = true));
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => textOf(dialog.getByRole("alert"))).toMatch(/Invalid email/);
    await dialog.getByLabel("Your email").fill("dan@acme.test");
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Your profile" }).click();
    await expect
      .poll(() => textOf(page.getByRole("dialog", { name: "Your profile" })))
      .toMatch(/Your email on file: d\*\*\*@acme\.test/);
    await page.getByRole("dialog", { name: "Your profile" }).getByRole("button", { name: "Remove my email" }).click();
    await page.getByRole("dialog", { name: "Your profile" }).waitFor({ state: "detached" });
    await ctx.close();
    const asAna = await signedIn(browser, server.url, ana().token);
    await asAna.page.locator(".conv-row").first().waitFor();
    expect(await asAna.page.getByRole("link", { name: "Outbox" }).count()).toBe(0);
    await asAna.ctx.close();
  });

  test("each person's card offers exactly the drawer's actions: a member has no Approve, an approver has", async () => {
    const api = async (token: string, path: string, body: unknown) =>
      (
        await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            "idempotency-key": `k-e2e-${Math.random()}`,
          },
          body: JSON.stringify(body),
        })
      ).json() as Promise<any>;
    const made = await api(dan().token, "/v1/conversations", {
      title: "Front desk",
      participants: [
        { entity_id: "ent_human_dan" },
        { entity_id: "ent_human_ana" },
        { entity_id: "ent_agent_scheduler" },
      ],
    });
    await api(ana().token, `/v1/conversations/${made.conversation_id}/messages`, {
      kind: "text",
      body_text: "@Office Scheduler can you schedule a 30-min call with Maria next week?",
    });
    /** The action buttons on the proposal card and in its Job Drawer, as this person sees them. */
    const offered = async (token: string) => {
      const { ctx, page } = await signedIn(browser, server.url, token);
      await page.goto(`${server.url}/c/${made.conversation_id}`);
      const formalize = card(page, "formalize");
      await formalize.waitFor({ timeout: 15_000 });
      const onCard = (await formalize.locator(".card-buttons button").allTextContents()).map((x) => x.trim());
      await formalize.locator(".card-details").click();
      const actions = page.getByRole("region", { name: "Actions" });
      await actions.waitFor();
      const inDrawer = (await actions.locator("button").allTextContents()).map((x) => x.trim());
      await ctx.close();
      return { onCard, inDrawer };
    };
    const member = await offered(ana().token);
    expect(member.onCard).not.toContain("Approve");
    expect(member.onCard).not.toContain("Reject");
    expect(member.onCard.length).toBeGreaterThan(0);
    expect(member.inDrawer).toEqual(member.onCard);
    const approver = await offered(dan().token);
    expect(approver.onCard).toEqual(expect.arrayContaining(["Approve", "Reject", ...member.onCard]));
    expect(approver.inDrawer).toEqual(approver.onCard);
    // A click the card does not offer is still refused by the server, and nothing says it happened.
    const job = (await (
      await fetch(`${server.url}/v1/conversations/${made.conversation_id}/timeline`, {
        headers: { authorization: `Bearer ${dan().token}` },
      })
    ).json()) as any;
    const proposal = job.items.map((i: any) => i.message?.card).find((c: any) => c?.card_type === "job.formalize");
    const approve = proposal.buttons.find((b: any) => b.action.type === "job.approve");
    const forged = await api(ana().token, `/v1/jobs/${proposal.job_id}/actions`, {
      conversation_id: made.conversation_id,
      card_id: proposal.card_id,
      button_id: approve.button_id,
      action: approve.action,
    });
    expect(forged.error.code).toBe("UNAUTHORIZED_ACTION");
    expect(
      (
        (await (
          await fetch(`${server.url}/v1/conversations/${made.conversation_id}/timeline`, {
            headers: { authorization: `Bearer ${dan().token}` },
          })
        ).json()) as any
      ).items.some((i: any) => i.message?.action),
    ).toBe(false);
  });

  test("the composer sends while a job is running", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    await openChatWithAgent(page, server.demo!.conversation_id);
    await askForJob(page, "Please schedule a 30-min call with Maria next week");
    await approveUntilWaiting(page);
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill("While you wait: first line");
    await box.press("Shift+Enter");
    await box.type("second line");
    await box.press("Enter");
    const bubble = page.locator(".msg-out .text", { hasText: "second line" }).last();
    await bubble.waitFor();
    await expect.poll(() => textOf(bubble)).toMatch("first line\nsecond line");
    // Confirmed by the server (the optimistic bubble was replaced by the real item).
    await expect.poll(() => page.locator(".item-local").count(), { timeout: 10_000 }).toBe(0);

    // A file picked in the composer waits above it, and arrives on Send as an artifact message with name, size and download.
    await page.getByTestId("file-input").setInputFiles({
      name: "price-list.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("item,price\nvalve,12.50\n"),
    });
    await page.getByRole("list", { name: "Files to send" }).getByText("price-list.csv").waitFor();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const file = page.locator(".bubble-file", { hasText: "price-list.csv" });
    await file.waitFor({ timeout: 10_000 });
    await expect
      .poll(() =>
        file
          .getByRole("link", { name: /Download/ })
          .getAttribute("href")
          .then((v) => v ?? ""),
      )
      .toMatch(/^\/v1\/artifacts\//);
    await shot(page, "13-desktop-composer-while-running");

    // Contacts: add one by hand, import a CSV, see them listed.
    await page.getByRole("link", { name: "Contacts" }).click();
    await page.getByLabel("Name").fill("Maria Lopes");
    await page.getByLabel("Company").fill("Acme");
    await page.getByRole("button", { name: "Add contact" }).click();
    await page.locator(".person-name", { hasText: "Maria Lopes" }).waitFor();
    await page.locator(".import-btn input").setInputFiles({
      name: "contacts.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("name,email,phone,company\nJoao Silva,joao@example.com,,Silva Lda\n"),
    });
    await page.locator(".person-name", { hasText: "Joao Silva" }).waitFor({ timeout: 10_000 });
    await shot(page, "14-desktop-contacts");
    await ctx.close();
  });

  test("a second member of the tenant sees the cards arrive live", async () => {
    // A group chat with both people and the agent, made through the API like any client would.
    const res = await fetch(`${server.url}/v1/conversations`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${dan().token}`,
        "Content-Type": "application/json",
        "Idempotency-Key": `e2e-group-${Date.now()}`,
      },
      body: JSON.stringify({
        title: "Front desk",
        participants: [
          { entity_id: dan().entity_id },
          { entity_id: ana().entity_id },
          { entity_id: server.demo!.agents[0]!.entity_id },
        ],
      }),
    });
    expect(res.status).toBeLessThan(300);
    const { conversation_id } = (await res.json()) as { conversation_id: string };

    const a = await signedIn(browser, server.url, dan().token);
    const b = await signedIn(browser, server.url, ana().token, PHONE);
    await openChatWithAgent(a.page, conversation_id);
    await openChatWithAgent(b.page, conversation_id);
    // Two people are in this chat: the agent answers when it is addressed.
    await send(a.page, `@Office Scheduler ${ASK}`);
    await card(b.page, "formalize").waitFor({ timeout: 15_000 });
    await b.page.locator(".msg-in .text", { hasText: ASK }).waitFor();
    await card(a.page, "formalize").getByRole("button", { name: "Approve" }).click();
    await card(b.page, "tracking").waitFor({ timeout: 15_000 });
    await shot(b.page, "10-phone-second-member-live");
    await a.ctx.close();
    await b.ctx.close();
  });

  test("dispute, cancel with its confirm dialog, and an input-modal validation error", async () => {
    const { ctx, page } = await signedIn(browser, server.url, dan().token);
    await openChatWithAgent(page, server.demo!.conversation_id);
    await askForJob(page, "Can you schedule a 15-min call with Maria next week?");
    await approveUntilWaiting(page);

    // Validation: required fields left empty are flagged in place; nothing is sent.
    await card(page, "tracking").getByRole("button", { name: "Provide info" }).click();
    const modal = page.getByRole("dialog");
    await modal.getByRole("button", { name: "Provide info" }).click();
    await expect.poll(() => modal.locator(".field-error").first().isVisible()).toBe(true);
    await expect.poll(() => modal.locator(".has-error").first().isVisible()).toBe(true);
    await shot(page, "11-desktop-input-validation");
    await modal.getByRole("button", { name: "Cancel" }).click();
    await modal.waitFor({ state: "detached" });

    // Dispute asks for a reason, then shows what Dan did.
    await card(page, "tracking").getByRole("button", { name: "Dispute" }).click();
    const dispute = page.getByRole("dialog");
    await expect.poll(() => textOf(dispute)).toMatch(/Dispute this update/);
    await dispute.locator("textarea").fill("Maria is on holiday next week; try the week after.");
    await dispute.getByRole("button", { name: "Dispute" }).click();
    await dispute.waitFor({ state: "detached" });
    await page.locator(".msg-action", { hasText: "disputed" }).first().waitFor();
    await expect.poll(() => page.locator(".msg-action.msg-failed").count()).toBe(0);

    // Cancel asks first; "Go back" keeps the job, confirming cancels it.
    const cancel = page
      .locator("article[data-card-type] button[data-action='job.cancel']:not([aria-disabled='true'])")
      .last();
    await cancel.click();
    const confirm = page.getByRole("dialog");
    await expect.poll(() => textOf(confirm)).toMatch("Cancel this job?");
    await shot(page, "12-desktop-cancel-confirm");
    await confirm.getByRole("button", { name: "Go back" }).click();
    await confirm.waitFor({ state: "detached" });
    await cancel.click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.locator(".msg-action", { hasText: "cancelled" }).first().waitFor();
    await expect
      .poll(async () => (await page.locator("article[data-card-type] .pill").last().textContent())?.trim(), {
        timeout: 15_000,
      })
      .toMatch(/Cancelled/i);
    await ctx.close();
  });
});
