import { afterEach, describe, expect, it } from "vitest";
import { createScriptedCalendarProvider } from "../../src/office/index.js";
import type { ToolErrorCode } from "../../src/office/tools/tool.js";
import { AGENT, click, CONV, DAN, GOLDEN_INPUT, setupWorld, T, TRACE, type World } from "./helpers.js";
import { approveGolden, card, completeGolden, stateOf } from "./flows.js";

let w: World;
afterEach(() => w?.cleanup());

async function worldWith(script: Array<ToolErrorCode | "ok">, extra: Parameters<typeof setupWorld>[0] = {}) {
  const provider = createScriptedCalendarProvider(script);
  w = await setupWorld({ ...extra, office: { calendarProvider: provider, ...extra.office } });
  return provider;
}
const tools = (jobId: string) => w.events(jobId).filter((e) => e.event_type.startsWith("tool."));
const labels = (c: any) => c.buttons.map((b: any) => b.label);

describe("failure path", () => {
  it("PROVIDER_TIMEOUT keeps in_progress, posts the retry plan, retries at +10 s and completes", async () => {
    const provider = await worldWith(["PROVIDER_TIMEOUT", "ok"]);
    const jobId = await completeGolden(w);
    expect(stateOf(w, jobId)).toBe("in_progress");
    const retry = card(w, jobId);
    expect(retry.progress.status_line).toBe("Calendar provider timed out. Retrying in ~10 seconds.");
    expect(labels(retry)).toEqual(["Got it", "Retry now", "Switch to Phone", "Dispute", "Cancel"]);
    expect(tools(jobId).at(-1)!.payload).toMatchObject({
      status: "error",
      attempt: 1,
      retryable: true,
      error: { error_code: "PROVIDER_TIMEOUT", retryable: true, suggested_wait_seconds: 10 },
    });
    await w.clock.advance(9_000);
    expect(provider.calls).toHaveLength(1);
    await w.clock.advance(1_000);
    expect(provider.calls).toHaveLength(2);
    const t = tools(jobId);
    expect(t[2]!.payload).toMatchObject({
      attempt: 2,
      retry_of_tool_call_id: (t[0]!.payload as any).tool_call_id,
      idempotency_key: `idem:${jobId}:calendar.create_invite:v2`,
    });
    expect(stateOf(w, jobId)).toBe("completed");
  });

  it("retries immediate / +10 s / +60 s / +5 min, then fails with the failed-state Finished card", async () => {
    const provider = await worldWith(["PROVIDER_TIMEOUT"]);
    const start = w.clock.now();
    const jobId = await completeGolden(w);
    await w.clock.advance(10_000);
    await w.clock.advance(60_000);
    expect(card(w, jobId).progress.status_line).toBe("Calendar provider timed out. Retrying in ~5 minutes.");
    await w.clock.advance(300_000);
    expect(provider.calls).toHaveLength(4);
    const called = tools(jobId)
      .filter((e) => e.event_type === "tool.called")
      .map((e) => Date.parse(e.ts) - start);
    expect(called).toEqual([0, 10_000, 70_000, 370_000]);
    expect(stateOf(w, jobId)).toBe("failed");
    const evs = w.events(jobId);
    expect(
      evs.find((e) => e.event_type === "job.state_changed" && (e.payload as any).next_state === "failed")!.payload,
    ).toMatchObject({
      prev_state: "in_progress",
      reason_code: "provider_timeout_retries_exhausted",
    });
    const fin = card(w, jobId);
    expect(fin).toMatchObject({
      card_type: "job.finished",
      outcome: {
        result: "failed",
        summary: "I couldn’t finish because the calendar provider is unavailable right now.",
      },
    });
    expect(labels(fin)).toEqual(["Try later", "Switch tool", "Cancel", "Ask in chat"]);
    // never claims work it did not do
    expect(
      evs.some(
        (e) => e.event_type === "job.completed" && (e.payload as any).finished_card.outcome.result === "completed",
      ),
    ).toBe(false);
    await w.clock.advance(3_600_000);
    expect(provider.calls).toHaveLength(4);
  });

  it("PROVIDER_RATE_LIMIT waits at least what the provider asks", async () => {
    await worldWith(["PROVIDER_RATE_LIMIT", "ok"]);
    const jobId = await completeGolden(w);
    expect(card(w, jobId).progress.status_line).toBe("Calendar provider is rate limiting us. Retrying in ~30 seconds.");
    await w.clock.advance(29_000);
    expect(stateOf(w, jobId)).toBe("in_progress");
    await w.clock.advance(1_000);
    expect(stateOf(w, jobId)).toBe("completed");
  });

  it("PROVIDER_AUTH_REQUIRED → waiting_input with the exact ask; Connect calendar retries", async () => {
    await worldWith(["PROVIDER_AUTH_REQUIRED", "ok"]);
    const jobId = await completeGolden(w);
    expect(stateOf(w, jobId)).toBe("waiting_input");
    const sc = w
      .events(jobId)
      .filter((e) => e.event_type === "job.state_changed")
      .at(-1)!.payload;
    expect(sc).toMatchObject({
      prev_state: "in_progress",
      next_state: "waiting_input",
      reason_code: "provider_auth_required",
      note: "Calendar sign-in was refused. Check CALDAV_USERNAME and CALDAV_PASSWORD.",
    });
    const c = card(w, jobId);
    expect(c.progress.status_line).toBe("The calendar server refused the sign-in. Fix it to continue.");
    expect(labels(c)).toEqual(["Connect calendar", "Use Phone instead", "Cancel", "Ask in chat"]);
    await w.office.jobAction(click(c, "Connect calendar"));
    expect(stateOf(w, jobId)).toBe("completed");
  });

  it("PROVIDER_AUTH_REQUIRED → Use Phone instead switches the meeting place and runs again", async () => {
    const provider = await worldWith(["PROVIDER_AUTH_REQUIRED", "ok"]);
    const jobId = await completeGolden(w);
    await w.office.jobAction(click(card(w, jobId), "Use Phone instead"));
    expect(provider.calls.at(-1)!.ics).toContain("LOCATION:Phone");
    expect(
      tools(jobId)
        .filter((e) => e.event_type === "tool.called")
        .at(-1)!.payload,
    ).toMatchObject({ inputs: { meeting: { type: "phone" }, provider: "caldav" }, attempt: 2 });
    expect(stateOf(w, jobId)).toBe("completed");
  });

  it("INVALID_INPUT → waiting_input asking for the details again; Provide info resumes", async () => {
    await worldWith(["INVALID_INPUT", "ok"]);
    const jobId = await completeGolden(w);
    expect(stateOf(w, jobId)).toBe("waiting_input");
    const c = card(w, jobId);
    expect(c.progress.status_line).toBe("I can’t use that email/time window. Please confirm the details.");
    const fields = c.buttons.find((b: any) => b.label === "Provide info").action.input_schema.fields;
    expect(fields.map((f: any) => f.key)).toEqual(["maria_email", "time_window"]);
    expect(fields[1].default_value).toBe("Tue–Thu, 14:00–17:00");
    await w.office.jobAction(
      click(c, "Provide info", { maria_email: "maria@acme.com", time_window: "Wed 10:00-12:00" }),
    );
    expect(stateOf(w, jobId)).toBe("completed");
  });

  it("PROVIDER_UNAVAILABLE and UNKNOWN are retried", async () => {
    await worldWith(["UNKNOWN", "PROVIDER_UNAVAILABLE", "ok"]);
    const jobId = await completeGolden(w);
    await w.clock.advance(10_000);
    expect(card(w, jobId).progress.status_line).toBe("Calendar provider is unavailable. Retrying in ~1 minute.");
    await w.clock.advance(60_000);
    expect(stateOf(w, jobId)).toBe("completed");
    expect(
      tools(jobId)
        .filter((e) => e.event_type === "tool.result")
        .map((e) => (e.payload as any).error?.error_code ?? "ok"),
    ).toEqual(["UNKNOWN", "PROVIDER_UNAVAILABLE", "ok"]);
  });

  it("Retry now runs the next attempt at once and the scheduled one never runs", async () => {
    const provider = await worldWith(["PROVIDER_TIMEOUT", "ok"]);
    const jobId = await completeGolden(w);
    await w.office.jobAction(click(card(w, jobId), "Retry now"));
    expect(stateOf(w, jobId)).toBe("completed");
    await w.clock.advance(600_000);
    expect(provider.calls).toHaveLength(2);
  });

  it("Switch to Phone on a retry card retries with the other meeting place", async () => {
    const provider = await worldWith(["PROVIDER_TIMEOUT", "ok"]);
    const jobId = await completeGolden(w);
    await w.office.jobAction(click(card(w, jobId), "Switch to Phone"));
    expect(provider.calls.map((c) => /LOCATION:Phone/.test(c.ics))).toEqual([false, true]);
    expect(stateOf(w, jobId)).toBe("completed");
  });

  it("Dispute on a retry card pauses: no retry fires", async () => {
    const provider = await worldWith(["PROVIDER_TIMEOUT", "ok"]);
    const jobId = await completeGolden(w);
    await w.office.jobAction(click(card(w, jobId), "Dispute", { dispute_reason: "Use Maria's other address" }));
    expect(stateOf(w, jobId)).toBe("waiting_input");
    await w.clock.advance(600_000);
    expect(provider.calls).toHaveLength(1);
  });

  it("circuit breaker: the 10th failure within 5 minutes for a tenant+provider stops retrying", async () => {
    const provider = await worldWith(["PROVIDER_TIMEOUT"]);
    const jobs: string[] = [];
    for (let i = 0; i < 10; i++) jobs.push(await completeGolden(w));
    for (const j of jobs.slice(0, 9)) expect(stateOf(w, j)).toBe("in_progress");
    expect(stateOf(w, jobs[9]!)).toBe("failed");
    const sc = w
      .events(jobs[9])
      .filter((e) => e.event_type === "job.state_changed")
      .at(-1)!.payload as any;
    expect(sc.reason_code).toBe("provider_circuit_open");
    expect(labels(card(w, jobs[9]!))).toEqual(["Try later", "Switch tool", "Cancel", "Ask in chat"]);
    expect(provider.calls).toHaveLength(10);
  });

  describe("failed-state buttons", () => {
    async function failed() {
      await worldWith([
        "PROVIDER_UNAVAILABLE",
        "PROVIDER_UNAVAILABLE",
        "PROVIDER_UNAVAILABLE",
        "PROVIDER_UNAVAILABLE",
        "ok",
      ]);
      const jobId = await completeGolden(w);
      await w.clock.advance(400_000);
      expect(stateOf(w, jobId)).toBe("failed");
      return jobId;
    }
    it("Try later proposes a linked job with the same details", async () => {
      const jobId = await failed();
      const r = await w.office.jobAction(click(card(w, jobId), "Try later"));
      const child = card(w, r.job_id!);
      expect(child).toMatchObject({ card_type: "job.formalize", parent_job_id: jobId });
      expect(child.job.inputs_needed.every((i: any) => i.status === "provided")).toBe(true);
      await w.office.jobAction(click(child, "Approve"));
      expect(stateOf(w, r.job_id!)).toBe("completed");
    });
    it("Switch tool proposes a linked job on the other provider", async () => {
      const jobId = await failed();
      const r = await w.office.jobAction(click(card(w, jobId), "Switch tool"));
      expect(card(w, r.job_id!).job.inputs_needed.find((i: any) => i.key === "meeting_link").value_preview).toBe(
        "Phone",
      );
    });
    it("Cancel closes the matter; Ask in chat answers", async () => {
      const jobId = await failed();
      await w.office.jobAction(click(card(w, jobId), "Cancel"));
      expect(w.events(jobId).at(-1)!.payload).toMatchObject({
        kind: "text",
        body_text: expect.stringMatching(/^Closed\./),
      });
      await w.office.jobAction(click(card(w, jobId), "Ask in chat"));
      expect((w.events(jobId).at(-1)!.payload as any).body_text).toMatch(/failed/);
    });
  });

  it("an agent without the calendar tool proposes no meeting: it says what it can't do", async () => {
    await worldWith(["ok"], { agents: [{ id: AGENT, name: "Office Scheduler", allowed_tools: [] }] });
    const r = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "Schedule a 30-min call with Maria next week",
    });
    expect(r.notes).toBe("Declined work no tool can do");
    expect(w.events().some((e) => e.event_type === "job.created")).toBe(false);
    const reply = w
      .events()
      .filter((e) => e.event_type === "message.sent")
      .at(-1)!.payload as { body_text: string };
    expect(reply.body_text).toMatch(/^I can’t do that myself\. I have no tools to do work with yet\./);
  });

  it("a tool taken away after the proposal is refused and recorded", async () => {
    await worldWith(["ok"]);
    const jobId = await approveGolden(w);
    await w.ledger.append({
      tenant_id: T,
      events: [
        {
          event_id: "evt_revoke_tools",
          event_type: "entity.registered",
          ts: "2025-12-27T10:16:00.000Z",
          tenant_id: T,
          trace_id: "trc_admin",
          conversation_id: "cnv_workspace",
          actor: { entity_id: "system_policy_agent", actor_type: "system" },
          payload: {
            entity_id: AGENT,
            actor_type: "agent",
            display_name: "Office Scheduler",
            roles: ["job_owner", "member"],
            allowed_tools: [],
          },
        },
      ],
    });
    await w.office.jobAction(click(card(w, jobId), "Provide info", GOLDEN_INPUT));
    expect(tools(jobId)).toHaveLength(0);
    const sc = w
      .events(jobId)
      .filter((e) => e.event_type === "job.state_changed")
      .at(-1)!.payload;
    expect(sc).toMatchObject({ next_state: "waiting_input", reason_code: "tool_not_allowed" });
    expect(card(w, jobId).progress.blockers).toEqual(["Tool not allowed: calendar.create_invite"]);
  });
});
