import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startScriptedModel, type ScriptedModel } from "../office/llm/scripted-model.js";
import { startTestServer, type TestServer, demoPerson } from "../support/server.js";
import { ARTIFACTS, launchBrowser, send, shot, signedIn, textOf } from "./harness.js";

/**
 * The LLM layer in a real browser, against the real server with OFFICE_PLANNER=llm pointing at
 * the scripted model: `#` picker → chip → message; a surface's button; ActionSummary with
 * "assumed" and Change; pin/unpin; Assist → Apply in the Job Drawer; a picked job's token where
 * the cursor was; a surface button marked confirm asks first.
 */
let server: TestServer;
let model: ScriptedModel;
let browser: Browser;
const C = "cnv_9f2a";

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  model = await startScriptedModel();
  [server, browser] = await Promise.all([
    startTestServer({
      office: {
        planner: "llm",
        llm: {
          baseUrl: model.baseUrl,
          model: "scripted",
          timeoutMs: 5000,
          maxTokens: 1500,
          responseFormat: "json_schema",
          logFull: false,
        },
      },
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await model?.close();
});

const token = () => demoPerson(server, "Dan").token;
const api = async (path: string) =>
  (await (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token()}` } })).json()) as any;
const jobNamed = async (title: string): Promise<string> => {
  const items = (await api(`/v1/conversations/${C}/timeline`)).items as any[];
  return items.find((i) => i.message.card?.title === title)!.message.card.job_id;
};
const nulls = {
  text: null,
  job_id: null,
  action: null,
  kind: null,
  title: null,
  goal: null,
  slots: null,
  choices: null,
};
const answer = (ops: unknown[], surfaces: unknown = null) => ({
  content: JSON.stringify({ operations: ops, surfaces, render: null, citations: null }),
});
const propose = (kind: string, title: string, goal: string, slots: Record<string, unknown> | null) =>
  answer([{ ...nulls, type: "propose_job", kind, title, goal, slots }]);
const meetingSlots = {
  duration_minutes: 30,
  attendee_name: "Bruno",
  attendee_email: null,
  time_window: null,
  timezone: null,
  meeting_link: null,
  title: null,
  day_hint: "next week",
};

describe("LLM layer in a real browser", () => {
  test("# picker → chip → message; surface button; ActionSummary with Change; pin/unpin; Assist → Apply", async () => {
    const { ctx, page } = await signedIn(browser, server.url, token());
    await page.getByRole("textbox", { name: "Message" }).waitFor();

    model.script(
      propose(
        "schedule_meeting",
        "Schedule call with Bruno",
        "Book a 30-minute call with Bruno next week",
        meetingSlots,
      ),
    );
    await send(page, "Can you schedule a 30-min call with Bruno next week?");
    await page.locator('article[data-card-type="job.formalize"]').first().waitFor({ timeout: 15_000 });
    model.script(
      propose("schedule_meeting", "Schedule call with Acme", "Book a call with Acme about the December invoice", null),
    );
    await send(page, "Please set up a call with Acme about the invoice");
    await expect
      .poll(() => page.locator('article[data-card-type="job.formalize"]').count(), { timeout: 15_000 })
      .toBe(2);
    const bruno = await jobNamed("Schedule call with Bruno");
    const invoice = await jobNamed("Schedule call with Acme");

    // # picker: type "#Bru", pick the job, it becomes a chip; the sent text carries the token.
    const approveOp = `[op v:1 type:"approve" job:"${bruno}"]`;
    model.script(
      answer(
        [{ ...nulls, type: "job_action", job_id: bruno, action: "approve" }],
        [
          {
            surface_id: "next-1",
            kind: "what_next_v1",
            title: "What's next",
            payload: {
              headline: "Approve the call with Bruno",
              body: null,
              targetJobId: bruno,
              primaryAction: { label: "Approve now", opToken: approveOp, confirm: null },
              secondaryActions: null,
              notes: null,
            },
          },
        ],
      ),
    );
    const box = page.getByRole("textbox", { name: "Message" });
    await box.click();
    await box.pressSequentially("#Bru");
    const picker = page.getByRole("listbox", { name: "Pick a job" });
    await picker.waitFor();
    await shot(page, "llm-01-job-picker");
    await picker.getByRole("option", { name: /Schedule call with Bruno/ }).click();
    await page.locator(".ref-chips .token-chip", { hasText: "Schedule call with Bruno" }).waitFor();
    await box.pressSequentially("please approve this");
    await shot(page, "llm-02-chip-in-composer");
    await box.press("Enter");
    await page.locator(".msg-out .token-chip", { hasText: "Schedule call with Bruno" }).first().waitFor();
    // The bubble shows as soon as the message is accepted; the model is asked a moment later.
    const lastAsked = () => (model.requests.at(-1)!.body.messages as any[])[1].content as string;
    await expect.poll(lastAsked).toContain("please approve this");
    const sentText = lastAsked();
    expect(sentText).toContain("[ref#1]");
    expect(sentText).not.toContain("[ref v:1");

    // The model asked to approve: Office asks first; the surface's button sends its [op …] token.
    const surfaceBtn = page.locator(`.surface button[data-op='${approveOp}']`);
    await surfaceBtn.waitFor({ timeout: 15_000 });
    await shot(page, "llm-03-surface-and-choice");
    const calls = model.completionCalls();
    await surfaceBtn.click();
    const summary = page.locator('[data-testid="action-summary"]', { hasText: "Schedule call with Bruno" }).first();
    await summary.waitFor({ timeout: 15_000 });
    expect(model.completionCalls()).toBe(calls); // a click-equivalent needs no model call
    await expect.poll(async () => (await api(`/v1/jobs/${bruno}`)).state, { timeout: 15_000 }).toBe("waiting_input");

    // A message without a reference: the waiting job is the assumed default; Change moves the target.
    model.script(
      answer([
        {
          ...nulls,
          type: "provide_input",
          slots: {
            ...meetingSlots,
            duration_minutes: null,
            attendee_name: null,
            day_hint: null,
            time_window: "Tuesday 14:00-16:00",
          },
        },
      ]),
    );
    await send(page, "Tuesday 14:00-16:00 works");
    const assumed = page.locator('[data-testid="action-summary"]', { has: page.locator(".badge-assumed") }).last();
    await assumed.waitFor({ timeout: 15_000 });
    expect(await textOf(assumed)).toMatch(/Schedule call with Bruno/);
    await assumed.getByRole("button", { name: "Change" }).click();
    await shot(page, "llm-04-action-summary-change");
    await assumed.getByRole("option", { name: "Schedule call with Acme" }).click();
    await expect
      .poll(async () => (await api(`/v1/conversations/${C}/context`)).target_job_id, { timeout: 10_000 })
      .toBe(invoice);

    // Pin / unpin from the quick actions (persisted server-side, not in localStorage).
    await page.getByRole("button", { name: "Quick actions" }).click();
    await page.getByRole("menuitem", { name: /Pin job to this conversation/ }).click();
    await expect
      .poll(async () => (await api(`/v1/conversations/${C}/context`)).pinned_job_id, { timeout: 10_000 })
      .not.toBeNull();
    expect(await page.evaluate(() => localStorage.getItem("logline.pinned"))).toBeNull();
    await page.getByRole("button", { name: "Quick actions" }).click();
    await shot(page, "llm-05-pinned-quick-actions");
    await page.getByRole("menuitem", { name: /Unpin job from this conversation/ }).click();
    await expect
      .poll(async () => (await api(`/v1/conversations/${C}/context`)).pinned_job_id, { timeout: 10_000 })
      .toBeNull();

    // Assist in the Job Drawer: one model call, validated suggestions, Apply re-proposes the card.
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const p = {
      jobId: invoice,
      dueDateISO: null,
      priority: null,
      title: null,
      text: null,
      subtasks: null,
      questionId: null,
      question: null,
      choices: null,
      strategy: null,
    };
    model.script({
      content: JSON.stringify({
        contractVersion: 1,
        surface: "job_drawer",
        must_abstain: false,
        suggestions: [
          {
            type: "set_due_date",
            suggestionId: "due-1",
            confidence: 0.7,
            rationale: "Invoices are due within a week",
            requiresConfirmation: false,
            payload: { ...p, dueDateISO: due },
          },
          {
            type: "rewrite_title",
            suggestionId: "bad-1",
            confidence: 0.7,
            rationale: "x",
            requiresConfirmation: false,
            payload: { ...p, jobId: "job_invented", title: "Nope" },
          },
        ],
      }),
    });
    await page.goto(`${server.url}/jobs/${invoice}`);
    const drawer = page.getByRole("dialog", { name: "Job details" });
    const item = drawer.locator(".assist-item", { hasText: "Set the due date" });
    await item.waitFor({ timeout: 15_000 });
    expect(await drawer.locator(".assist-item").count()).toBe(1);
    await shot(page, "llm-06-assist");
    await item.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(async () => (await api(`/v1/jobs/${invoice}`)).due_at ?? null, { timeout: 15_000 })
      .not.toBeNull();
    await expect.poll(() => drawer.locator(".assist-item").count(), { timeout: 10_000 }).toBe(0);
    await shot(page, "llm-07-assist-applied");
    await ctx.close();
  });

  test("a job picked with # lands where the cursor was; a surface button marked confirm asks first", async () => {
    const { ctx, page } = await signedIn(browser, server.url, token());
    const box = page.getByRole("textbox", { name: "Message" });
    await box.waitFor();
    model.script(propose("schedule_meeting", "Plan review with Carla", "Book a review with Carla", null));
    await send(page, "Please book a review with Carla");
    await page
      .locator('article[data-card-type="job.formalize"]', { hasText: "Plan review with Carla" })
      .waitFor({ timeout: 15_000 });
    const paper = await jobNamed("Plan review with Carla");

    // The person writes, moves the cursor back between "check" and "today", and picks the job there.
    const approveOp = `[op v:1 type:"approve" job:"${paper}"]`;
    model.script(
      answer(
        [{ ...nulls, type: "chat_reply", text: "Here is what I would do next." }],
        [
          {
            surface_id: "next-2",
            kind: "what_next_v1",
            title: "Next step",
            payload: {
              headline: "Approve the paper order",
              body: null,
              targetJobId: paper,
              primaryAction: { label: "Approve order", opToken: approveOp, confirm: true },
              secondaryActions: null,
              notes: null,
            },
          },
        ],
      ),
    );
    await box.click();
    await box.fill("Please check today");
    await box.evaluate((el: HTMLTextAreaElement) =>
      el.setSelectionRange("Please check ".length, "Please check ".length),
    );
    await box.pressSequentially("#Plan");
    await page
      .getByRole("listbox", { name: "Pick a job" })
      .getByRole("option", { name: /Plan review with Carla/ })
      .click();
    await expect.poll(() => box.inputValue()).toBe("Please check #Plan review with Carla today");
    await shot(page, "llm-08-chip-at-cursor");
    await box.press("Enter");
    await expect
      .poll(
        () =>
          ((
            model.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)?.body.messages as any[] | undefined
          )?.[1]?.content as string | undefined) ?? "",
        {
          timeout: 15_000,
        },
      )
      .toContain("Please check [ref#1] today");
    const stored = async () =>
      ((await api(`/v1/conversations/${C}/timeline`)).items as any[]).map(
        (i) => i.message.body_text as string | undefined,
      );
    expect(await stored()).toContain(
      `Please check [ref v:1 type:"job" id:"${paper}" name:"Plan review with Carla"] today`,
    );

    // The surface's button asks first: Go back sends nothing; confirming sends the [op …] token.
    const surfaceBtn = page.locator(`.surface button[data-op='${approveOp}']`);
    await surfaceBtn.waitFor({ timeout: 15_000 });
    const dialog = page.getByRole("dialog", { name: "Approve order?" });
    await surfaceBtn.click();
    await dialog.waitFor();
    await shot(page, "llm-09-surface-confirm");
    await dialog.getByRole("button", { name: "Go back" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await stored()).not.toContain(approveOp);
    expect((await api(`/v1/jobs/${paper}`)).state).toBe("proposed");
    await surfaceBtn.click();
    await dialog.getByRole("button", { name: "Approve order" }).click();
    await expect.poll(async () => (await stored()).includes(approveOp), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await api(`/v1/jobs/${paper}`)).state, { timeout: 15_000 }).not.toBe("proposed");
    await ctx.close();
  });
});
