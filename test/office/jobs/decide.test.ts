import { describe, expect, it } from "vitest";
import type { TCardAction, TCardButton } from "../../../contracts/cards.js";
import { JOB_STATES, type TJobState } from "../../../contracts/primitives.js";
import { isAppError } from "../../../src/shared/errors.js";
import { buildTrackingCard } from "../../../src/office/narrator.js";
import type { EntityProfile } from "../../../src/office/context-builder.js";
import type { Draft } from "../../../src/office/emitter.js";
import { toolCallId } from "../../../src/office/job-drafts.js";
import { isActionAllowed } from "../../../src/job/transitions.js";
import type { JobEvent } from "../../../src/job/view.js";
import { foldJob, type JobSlots, type JobView } from "../../../src/office/job-machine.js";
import { createJobProposals } from "../../../src/office/job-proposals.js";
import { decide } from "../../../src/office/jobs/decide.js";
import type { Clicker, DecideContext, Decision, JobCommand, PlannedCall } from "../../../src/office/jobs/model.js";
import { afterDrafts, draftsFor } from "../../../src/office/jobs/basics.js";
import type { OutboxDelivery } from "../../../src/office/mail/index.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "../../../src/office/engine/retry-policy.js";
import { parseWhen } from "../../../src/office/when/index.js";

/**
 * The job state machine as given / when / then, with no database: the job is folded from
 * events (`given`), a command is decided (`when`), and the decision's events and effects are
 * what is checked (`then`). Every transition and every refusal of the decider is here.
 */

const T = "tnt_decide";
const CONV = "cnv_decide";
const NOW = "2026-03-02T09:00:00.000Z";
const TZ = "Europe/Lisbon";

const AGENT: EntityProfile = {
  entity_id: "ent_agent",
  actor_type: "agent",
  display_name: "Office",
  roles: [],
  capabilities: [],
  allowed_tools: ["calendar.create_invite"],
};
const DAN: Clicker = {
  entity_id: "ent_dan",
  actor_type: "human",
  display_name: "Dan",
  roles: ["member", "job_approver"],
};
const ANA: Clicker = { entity_id: "ent_ana", actor_type: "human", display_name: "Ana", roles: ["member"] };
const PEOPLE = new Map<string, EntityProfile>(
  [DAN, ANA].map((p) => [
    p.entity_id,
    {
      entity_id: p.entity_id,
      actor_type: "human",
      display_name: p.display_name,
      roles: [...p.roles],
      capabilities: [],
      allowed_tools: [],
    },
  ]),
);

const EMAIL = { redacted: "a***@example.org", hash: "blake3:0123456789abcdef", vault_ref: "vault_ref:vlt_email" };
const WHEN = parseWhen("tomorrow at 3pm", { now: Date.parse(NOW), timezone: TZ })!;
const FULL: JobSlots = {
  attendee_name: "Ana",
  attendee_email: EMAIL,
  when: WHEN,
  time_window: "tomorrow at 3pm",
  timezone: TZ,
  meeting_link: "jitsi",
  duration_minutes: 30,
};

/** Ids from a counter: the same decision twice gives the same ids. */
function counterIds() {
  let n = 0;
  return (prefix: string) => `${prefix}_${(++n).toString(36).padStart(4, "a")}`;
}

function context(over: Partial<DecideContext> = {}): DecideContext {
  return {
    now: NOW,
    ids: counterIds(),
    agent: AGENT,
    defaultTimezone: TZ,
    profileOf: (id) => PEOPLE.get(id) ?? (id === AGENT.entity_id ? AGENT : undefined),
    calendar: {
      allowed: true,
      tool: {
        name: "calendar.create_invite",
        version: "v2",
        purpose: () => "Create a 30-minute meeting",
        sanitize: (i) => ({
          inputs: { provider: "local", title: (i as { title: string }).title },
          redactions_applied: ["email_redacted"],
          hashes_applied: [],
        }),
        providerOf: () => "local",
      },
    },
    mail: "not_configured",
    retrySchedule: DEFAULT_RETRY_SCHEDULE_MS,
    ...over,
  };
}

/** Drafts as the ledger would store them (ids, time and tenant filled in). */
let seq = 0;
const stored = (drafts: readonly Draft[]): JobEvent[] =>
  drafts.map((d) => ({ ...d, event_id: d.event_id ?? `evt_s${++seq}`, ts: NOW, tenant_id: T, trace_id: "trc_decide" }));

type Kind = "schedule_meeting" | "generic" | "handoff";

/** A proposed job: job.created, job.proposed and its Formalize card (ids unique per job). */
let jobs = 0;
function proposed(kind: Kind = "schedule_meeting", slots: JobSlots = FULL): JobEvent[] {
  const salt = ++jobs;
  const n = counterIds();
  const ctx = context({ ids: (p) => n(`${p}_j${salt}`) });
  const p = createJobProposals({ ids: ctx.ids, defaultTimezone: TZ, drafts: draftsFor(ctx) }).proposeDrafts(
    AGENT,
    { tenant_id: T, conversation_id: CONV },
    {
      title: kind === "schedule_meeting" ? "Schedule a call with Ana" : "Send the invoice",
      kind,
      goal: "Do it",
      slots,
    },
  );
  return stored(p.drafts);
}

function given(...history: JobEvent[][]): JobView {
  const job = foldJob(history.flat());
  if (!job) throw new Error("no job.created in the history");
  return job;
}

/** History plus what a decision wrote: the next `given`. */
const then = (history: JobEvent[], d: Decision) => [...history, ...stored(d.events)];

function buttonOf(job: JobView, type: TCardAction["type"]): { card_id: string; button: TCardButton } {
  const cards = [job.latest["job.finished"], job.latest["job.tracking"], job.latest["job.formalize"]].filter(
    (c) => c !== undefined,
  );
  for (const card of cards.sort((a, b) => b.created_at.localeCompare(a.created_at) || 0)) {
    const button = card.buttons.find((b) => b.action.type === type);
    if (button) return { card_id: card.card_id, button };
  }
  throw new Error(`no ${type} button on the job's cards`);
}

function click(
  job: JobView,
  type: TCardAction["type"],
  by: Clicker = DAN,
  input?: Record<string, unknown>,
  prepared: Extract<JobCommand, { type: "click" }>["prepared"] = {},
): JobCommand {
  const { card_id, button } = buttonOf(job, type);
  return {
    type: "click",
    click: { card_id, button_id: button.button_id, action: button.action, by, ...(input ? { input } : {}) },
    prepared,
  };
}

/** The job with a card offering `action` (cards are the only place a click can come from). */
function offering(job: JobView, action: TCardAction, by: Clicker = DAN): { job: JobView; cmd: JobCommand } {
  const ctx = context({ ids: (p) => `${p}_offer` });
  const c = draftsFor(ctx).cardCtx(job, AGENT);
  const button = { button_id: `btn_offer_${action.type}`, label: action.type, style: "secondary" as const, action };
  const card = buildTrackingCard(c, { state: "in_progress", status_line: "offered", steps: [], buttons: [button] });
  const withCard = afterDrafts(job, draftsFor(ctx).cardDrafts(AGENT.entity_id, job.job_id, "job.progress", card));
  return {
    job: withCard,
    cmd: { type: "click", click: { card_id: card.card_id, button_id: button.button_id, action, by }, prepared: {} },
  };
}

const types = (d: Decision) => d.events.map((e) => e.event_type);
const stateChanges = (d: Decision) =>
  d.events
    .filter((e) => e.event_type === "job.state_changed")
    .map((e) => `${e.payload.prev_state}→${e.payload.next_state}:${e.payload.reason_code}`);
const effectTypes = (d: Decision) => d.effects.map((e) => e.type);

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  return "none";
}

/** A history in which the job was approved and its first call is recorded (no result yet). */
function running(slots: JobSlots = FULL) {
  const h = proposed("schedule_meeting", slots);
  const d = decide(given(h), click(given(h), "job.approve"), context());
  return { history: then(h, d), call: (d.effects[0] as { call: PlannedCall }).call };
}

const timeout = (latency = 5) => ({
  ok: false as const,
  error: {
    error_code: "PROVIDER_TIMEOUT" as const,
    message_safe: "The calendar did not answer in time.",
    retryable: true,
  },
  latency_ms: latency,
});
const created = {
  ok: true as const,
  output: {
    event_uid: "logline-abc",
    scheduled_time: { start: "2026-03-03T15:00:00.000Z", end: "2026-03-03T15:30:00.000Z", timezone: TZ },
    meeting: { type: "jitsi", label: "Jitsi Meet", url: "https://meet.jit.si/LogLineRoom", pasted: false },
    calendar: { written: false, reason: "not_configured" },
    invite_artifact_id: "art_invite",
    invite_url: "/v1/artifacts/art_invite",
    attendees_count: 1,
  },
  artifacts: [
    {
      artifact_id: "art_invite",
      kind: "file" as const,
      title: "invite.ics",
      uri: "/v1/artifacts/art_invite",
      mime_type: "text/calendar",
    },
  ],
  latency_ms: 12,
};

describe("approve", () => {
  it("given a complete meeting proposal, when Dan approves, then it is approved, the intent is recorded and the tool runs", () => {
    const h = proposed();
    const job = given(h);
    const d = decide(job, click(job, "job.approve"), context());
    // No Tracking card is in the chat yet: the one saying the invite is being created is posted there too.
    expect(types(d)).toEqual(["job.approved", "job.state_changed", "job.progress", "message.sent", "tool.called"]);
    expect((d.events[3]!.payload as { card: { card_id: string } }).card.card_id).toBe(
      (d.events[2]!.payload as { tracking_card: { card_id: string } }).tracking_card.card_id,
    );
    expect(stateChanges(d)).toEqual(["approved→in_progress:approved_by_user"]);
    expect(d.events[0]!.actor).toEqual({ entity_id: DAN.entity_id, actor_type: "human" });
    expect(d.events[4]!.event_id).toBe(`evt_${toolCallId(job.job_id, 1)}`);
    expect(effectTypes(d)).toEqual(["run_tool"]);
    const run = d.effects[0] as { job: JobView; call: PlannedCall };
    expect(run.call).toMatchObject({
      call_id: toolCallId(job.job_id, 1),
      attempt: 1,
      tool_name: "calendar.create_invite",
      provider: "local",
    });
    expect(run.job.state).toBe("in_progress");
    expect(given(then(h, d)).state).toBe("in_progress");
  });

  it("given a meeting without an address, when approved, then it waits for the missing details and runs nothing", () => {
    const { attendee_email: _e, ...slots } = FULL;
    const h = proposed("schedule_meeting", slots);
    const d = decide(given(h), click(given(h), "job.approve"), context());
    expect(stateChanges(d)).toEqual([
      "approved→in_progress:approved_by_user",
      "in_progress→waiting_input:missing_required_inputs",
    ]);
    expect(d.effects).toEqual([]);
    const job = given(then(h, d));
    expect(job.state).toBe("waiting_input");
    expect(job.latest["job.tracking"]?.buttons.map((b) => b.action.type)).toContain("job.provide_input");
    // The details given, the chat's Tracking card moves in place to say the invite is being created.
    const asked = job.latest["job.tracking"]!.card_id;
    const go = decide(
      job,
      click(job, "job.provide_input", DAN, { ana_email: "ana@example.org" }, { inputs: { attendee_email: EMAIL } }),
      context(),
    );
    expect(types(go)).toEqual(["job.input_provided", "job.state_changed", "job.progress", "tool.called"]);
    expect((go.events[2]!.payload as { tracking_card: { card_id: string } }).tracking_card.card_id).toBe(asked);
  });

  it("given the agent may not use the calendar, when approved, then it stops on tool_not_allowed and says who can help", () => {
    const h = proposed();
    const d = decide(
      given(h),
      click(given(h), "job.approve"),
      context({ calendar: { ...context().calendar, allowed: false } }),
    );
    expect(stateChanges(d).at(-1)).toBe("in_progress→waiting_input:tool_not_allowed");
    expect(d.effects).toEqual([]);
    const card = d.events.find((e) => e.event_type === "job.progress")!.payload.tracking_card as {
      summary?: string;
      progress?: { status_line?: string };
    };
    expect(JSON.stringify(card)).toContain("An admin can allow it");
  });

  it("given work no tool can do, when approved, then nothing runs and the card says so", () => {
    const h = proposed("generic", {});
    const d = decide(given(h), click(given(h), "job.approve"), context());
    expect(stateChanges(d).at(-1)).toBe("in_progress→waiting_input:no_tool_available");
    expect(d.effects).toEqual([]);
  });

  it("given work handed to a person, when approved, then Office waits for that person and claims nothing", () => {
    const h = proposed("handoff", { request: "Send the invoice", requested_by: ANA.entity_id });
    const d = decide(given(h), click(given(h), "job.approve"), context());
    expect(stateChanges(d).at(-1)).toBe("in_progress→waiting_input:waiting_on_person");
    const later = then(h, d);
    const done = decide(
      given(later),
      click(given(later), "job.provide_input", DAN, { info: "Posted it" }, { inputs: { info: "Posted it" } }),
      context(),
    );
    expect(types(done)).toEqual(["job.input_provided", "job.state_changed", "job.completed", "message.sent"]);
    expect(JSON.stringify(done.events[2]!.payload)).toContain("Posted it");
    expect(given(then(later, done)).state).toBe("completed");
  });
});

describe("the other answers to a proposal", () => {
  it("reject records the person's reason and the agent's question; the job is rejected", () => {
    const h = proposed();
    const d = decide(
      given(h),
      click(given(h), "job.reject", DAN, { reason: "not now" }, { text: "not now" }),
      context(),
    );
    expect(types(d)).toEqual(["job.rejected", "message.sent"]);
    expect(d.events[0]!.payload).toMatchObject({ reason_text: "not now" });
    expect(given(then(h, d)).state).toBe("rejected");
  });

  it("request changes re-proposes the same job, and the old proposal can no longer be approved", () => {
    const h = proposed();
    const job = given(h);
    const change = click(
      job,
      "job.request_changes",
      DAN,
      { changes_request: "make it 45 minutes" },
      { text: "make it 45 minutes", slots: { duration_minutes: 45 } },
    );
    const d = decide(job, change, context());
    expect(types(d)).toEqual(["job.changes_requested", "job.proposed", "message.sent"]);
    expect(d.events[1]!.payload).toMatchObject({ job_id: job.job_id });
    expect(JSON.stringify(d.events[1]!.payload)).toContain("45-minute");
    const after = given(then(h, d));
    expect(after.slots.duration_minutes).toBe(45);
    // The first card's Approve is now stale.
    const stale = {
      type: "click" as const,
      click: { ...(click(job, "job.approve") as Extract<JobCommand, { type: "click" }>).click },
      prepared: {},
    };
    expect(refusal(() => decide(after, stale, context()))).toBe("INVALID_PROVENANCE");
  });

  it("ask in chat records the question as the person and answers it, leaving the job as it was", () => {
    const h = proposed();
    const d = decide(given(h), click(given(h), "chat.ask", DAN, undefined, { text: "Why Jitsi?" }), context());
    expect(types(d)).toEqual(["message.sent", "message.sent"]);
    expect(d.events[0]!.actor.entity_id).toBe(DAN.entity_id);
    expect(d.events[0]!.payload).toMatchObject({ body_text: "Why Jitsi?", action: { type: "chat.ask" } });
    expect(given(then(h, d)).state).toBe("proposed");
  });
});

describe("a running job", () => {
  it("the tool created the invite (no mail set up): the result is recorded and the job completes from it", () => {
    const { history, call } = running();
    const d = decide(
      given(history),
      { type: "record_outcome", call, outcome: created, breaker_open: false },
      context(),
    );
    expect(types(d)).toEqual(["tool.result", "job.completed", "message.sent"]);
    expect(d.events[0]!.payload).toMatchObject({ status: "success", tool_call_id: call.call_id });
    // The artifact points at the very event that recorded it.
    const artifacts = d.events[0]!.payload.artifacts as Array<{ event_id: string }>;
    expect(artifacts[0]!.event_id).toBe(d.events[0]!.event_id);
    expect(effectTypes(d)).toEqual(["reset_breaker"]);
    // Every claim on the card is a field of the recorded output: the slot, the place, no calendar, no mail.
    const summary = JSON.stringify(d.events[1]!.payload);
    expect(summary).toContain("Created a 30-minute invite");
    expect(summary).toContain("15:00");
    expect(summary).toContain("Jitsi Meet room");
    expect(summary).toContain("Not added to any calendar");
    expect(summary).toContain("Not emailed");
    expect(given(then(history, d)).state).toBe("completed");
  });

  it("with mail set up, the invite is queued for the outbox and the job stays in progress", () => {
    const { history, call } = running();
    const d = decide(
      given(history),
      { type: "record_outcome", call, outcome: created, breaker_open: false },
      context({ mail: "send" }),
    );
    expect(types(d)).toEqual(["tool.result", "job.progress", "message.sent"]);
    expect(effectTypes(d)).toEqual(["reset_breaker", "queue_invite"]);
    expect(given(then(history, d)).state).toBe("in_progress");
  });

  it("a timeout is recorded as retryable and the next attempt is armed at the schedule's delay", () => {
    const { history, call } = running();
    const d = decide(
      given(history),
      { type: "record_outcome", call, outcome: timeout(), breaker_open: false },
      context(),
    );
    expect(types(d)).toEqual(["tool.result", "job.progress", "message.sent"]);
    expect(d.events[0]!.payload).toMatchObject({
      status: "error",
      retryable: true,
      error: { error_code: "PROVIDER_TIMEOUT", suggested_wait_seconds: 10 },
    });
    expect(d.effects).toEqual([{ type: "arm_retry", delay_ms: DEFAULT_RETRY_SCHEDULE_MS[1], attempt: 2 }]);
  });

  it("the retry that is due runs attempt 2 with its own id; a stale timer does nothing", () => {
    const { history, call } = running();
    const failed = then(
      history,
      decide(given(history), { type: "record_outcome", call, outcome: timeout(), breaker_open: false }, context()),
    );
    const job = given(failed);
    const d = decide(job, { type: "retry_due", attempt: 2 }, context());
    expect(types(d)).toEqual(["tool.called"]);
    expect(d.events[0]!.payload).toMatchObject({
      attempt: 2,
      retry_of_tool_call_id: call.call_id,
      tool_call_id: toolCallId(job.job_id, 2),
    });
    expect(decide(job, { type: "retry_due", attempt: 3 }, context())).toEqual({ events: [], effects: [] });
  });

  it("the last attempt's failure fails the job with a Finished card that offers a later try", () => {
    let { history, call } = running();
    for (let attempt = 1; attempt < DEFAULT_RETRY_SCHEDULE_MS.length; attempt++) {
      history = then(
        history,
        decide(given(history), { type: "record_outcome", call, outcome: timeout(), breaker_open: false }, context()),
      );
      const next = decide(given(history), { type: "retry_due", attempt: attempt + 1 }, context());
      history = then(history, next);
      call = (next.effects[0] as { call: PlannedCall }).call;
    }
    expect(call.attempt).toBe(DEFAULT_RETRY_SCHEDULE_MS.length);
    const d = decide(
      given(history),
      { type: "record_outcome", call, outcome: timeout(), breaker_open: false },
      context(),
    );
    expect(stateChanges(d)).toEqual(["in_progress→failed:provider_timeout_retries_exhausted"]);
    expect(d.effects).toEqual([]);
    expect(given(then(history, d)).state).toBe("failed");
  });

  it("an open circuit fails at once", () => {
    const { history, call } = running();
    const d = decide(
      given(history),
      { type: "record_outcome", call, outcome: timeout(), breaker_open: true },
      context(),
    );
    expect(stateChanges(d)).toEqual(["in_progress→failed:provider_circuit_open"]);
  });

  it("auth required waits for a person, and Switch tool runs again on the other meeting place", () => {
    const { history, call } = running();
    const auth = {
      ok: false as const,
      error: {
        error_code: "PROVIDER_AUTH_REQUIRED" as const,
        message_safe: "Connect your calendar.",
        retryable: false,
      },
      latency_ms: 3,
    };
    const d = decide(given(history), { type: "record_outcome", call, outcome: auth, breaker_open: false }, context());
    expect(stateChanges(d)).toEqual(["in_progress→waiting_input:provider_auth_required"]);
    const waiting = then(history, d);
    const job = given(waiting);
    const sw = decide(job, click(job, "job.switch_tool"), context());
    expect(effectTypes(sw)[0]).toBe("cancel_retry");
    expect(types(sw)).toEqual(["job.changes_requested", "job.state_changed", "job.progress", "tool.called"]);
    const run = sw.effects.find((e) => e.type === "run_tool") as { job: JobView; call: PlannedCall };
    expect(run.job.slots.meeting_link).not.toBe("jitsi");
    expect(run.call.attempt).toBe(2);
  });

  it("a tool call without a result is resumed under the same id, with nothing new recorded", () => {
    const { history, call } = running();
    const d = decide(given(history), { type: "resume_call" }, context());
    expect(d.events).toEqual([]);
    expect(d.effects).toMatchObject([{ type: "run_tool", call: { call_id: call.call_id, attempt: 1 } }]);
  });

  it("dispute pauses a running job: no retry fires, the job waits and the agent asks what is wrong", () => {
    const { history, call } = running();
    const retrying = then(
      history,
      decide(given(history), { type: "record_outcome", call, outcome: timeout(), breaker_open: false }, context()),
    );
    const job = given(retrying);
    const d = decide(
      job,
      click(job, "job.dispute", ANA, { dispute_reason: "wrong day" }, { text: "wrong day" }),
      context(),
    );
    expect(effectTypes(d)).toEqual(["cancel_retry"]);
    expect(types(d)).toEqual(["job.disputed", "job.state_changed", "job.progress", "message.sent", "message.sent"]);
    expect(stateChanges(d)).toEqual(["in_progress→waiting_input:disputed_by_user"]);
  });

  it("cancel stops timers and mail, and closes the job with a Finished card naming who cancelled", () => {
    const { history, call } = running();
    const retrying = then(
      history,
      decide(given(history), { type: "record_outcome", call, outcome: timeout(), breaker_open: false }, context()),
    );
    const job = given(retrying);
    const d = decide(job, click(job, "job.cancel", ANA), context());
    expect(effectTypes(d)).toEqual(["cancel_retry", "cancel_mail", "abort_call"]);
    expect(stateChanges(d)).toEqual(["in_progress→cancelled:cancelled_by_user"]);
    expect(JSON.stringify(d.events.at(-1)!.payload)).toContain("Cancelled by Ana");
    expect(given(then(retrying, d)).state).toBe("cancelled");
  });

  it("Retry when the invite exists and only its email failed resends the same message, not a second invite", () => {
    const { history, call } = running();
    const queued = then(
      history,
      decide(
        given(history),
        { type: "record_outcome", call, outcome: created, breaker_open: false },
        context({ mail: "send" }),
      ),
    );
    // The outbox recorded a refusal and the job waits (that card is the mail worker's).
    const refused = stored([
      draftsFor(context()).stateDraft(
        AGENT.entity_id,
        given(queued).job_id,
        "in_progress",
        "waiting_input",
        "mail_refused",
      ),
    ]);
    const { job, cmd } = offering(given([...queued, ...refused]), { type: "job.retry", job_id: given(queued).job_id });
    const d = decide(job, cmd, context());
    expect(effectTypes(d)).toEqual(["cancel_retry", "resend_mail"]);
    expect(types(d)).toEqual(["job.state_changed", "job.progress", "message.sent"]);
    expect(stateChanges(d)).toEqual(["waiting_input→in_progress:resend_requested"]);
    expect(JSON.stringify(d.events)).toContain("Resending the invite to a***@example.org");
    expect(types(d)).not.toContain("tool.called");
  });

  it("Resend from the Outbox screen is the same step", () => {
    const { history, call } = running();
    const queued = then(
      history,
      decide(
        given(history),
        { type: "record_outcome", call, outcome: created, breaker_open: false },
        context({ mail: "send" }),
      ),
    );
    const d = decide(given(queued), { type: "resend_mail" }, context());
    expect(effectTypes(d)).toEqual(["resend_mail"]);
    expect(types(d)).toEqual(["job.progress", "message.sent"]);
  });

  it("provide info while running is noted; an answer in chat continues a waiting job", () => {
    const { attendee_email: _e, ...slots } = FULL;
    const h = proposed("schedule_meeting", slots);
    const waiting = then(h, decide(given(h), click(given(h), "job.approve"), context()));
    const job = given(waiting);
    const d = decide(
      job,
      {
        type: "answer_in_chat",
        by: { entity_id: DAN.entity_id, actor_type: "human" },
        inputs: { attendee_email: EMAIL },
      },
      context(),
    );
    expect(types(d)).toEqual(["job.input_provided", "job.state_changed", "job.progress", "tool.called"]);
    expect(d.events[0]!.payload).toMatchObject({
      card_id: job.latest["job.tracking"]!.card_id,
      action: { type: "job.provide_input" },
    });
    expect(d.notes).toBe("Continued the job");
    const noted = decide(
      given(running().history),
      { type: "answer_in_chat", by: { entity_id: DAN.entity_id, actor_type: "human" }, inputs: {} },
      context(),
    );
    expect(noted.notes).toBe("Job not waiting for input");
  });
});

describe("the email step", () => {
  function queued() {
    const { history, call } = running();
    return then(
      history,
      decide(
        given(history),
        { type: "record_outcome", call, outcome: created, breaker_open: false },
        context({ mail: "send" }),
      ),
    );
  }
  const delivery = (job: JobView): OutboxDelivery => ({
    outbox_id: "obx_one",
    tenant_id: T,
    job_id: job.job_id,
    artifact_id: "art_invite",
    to_redacted: EMAIL.redacted,
    subject: "Invitation",
    status: "sending",
    attempts: 1,
    next_attempt_at: null,
    last_error: null,
    last_response: null,
    message_id: null,
    sent_at: null,
    created_at: NOW,
    updated_at: NOW,
  });

  it("the intent is recorded once per attempt, and not at all for a job no longer running", () => {
    const h = queued();
    const job = given(h);
    const d = decide(job, { type: "mail_attempt", delivery: delivery(job), attempt: 1 }, context());
    expect(types(d)).toEqual(["tool.called"]);
    expect(d.events[0]!.payload).toMatchObject({ tool_name: "mail.send", inputs: { to: EMAIL.redacted } });
    expect(
      decide(given(then(h, d)), { type: "mail_attempt", delivery: delivery(job), attempt: 1 }, context()).events,
    ).toEqual([]);
    expect(
      refusal(() =>
        decide(
          { ...job, state: "cancelled" },
          { type: "mail_attempt", delivery: delivery(job), attempt: 1 },
          context(),
        ),
      ),
    ).toBe("CONFLICT");
  });

  it("sent: the result keeps a digest of the Message-ID, never an address, and the job completes quoting the server", () => {
    const h = queued();
    const job = given(h);
    const sent = {
      status: "sent" as const,
      message_id: "<obx_one@mail.example.org>",
      response: "250 2.0.0 Ok: queued as ABC",
      attempts: 1,
      rejected: 0,
    };
    const d = decide(job, { type: "mail_outcome", delivery: delivery(job), attempt: 1, outcome: sent }, context());
    expect(types(d)).toEqual(["tool.called", "tool.result", "job.completed", "message.sent"]);
    expect(JSON.stringify(d.events[1]!.payload)).not.toContain("mail.example.org");
    expect(d.events[1]!.payload).toMatchObject({
      status: "success",
      output: { message_id_sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
    expect(JSON.stringify(d.events[2]!.payload)).toContain("250 2.0.0 Ok");
    expect(given(then(h, d)).state).toBe("completed");
  });

  it("refused: the job waits on its approver with Resend and Cancel; retrying: it stays in progress", () => {
    const h = queued();
    const job = given(h);
    const refused = decide(
      job,
      {
        type: "mail_outcome",
        delivery: delivery(job),
        attempt: 1,
        outcome: { status: "failed", error: "550 No such user", code: 550, attempts: 1 },
      },
      context(),
    );
    expect(stateChanges(refused)).toEqual(["in_progress→waiting_input:mail_refused"]);
    expect(refused.events[1]!.payload).toMatchObject({ status: "error", error: { error_code: "INVALID_INPUT" } });
    const waiting = given(then(h, refused));
    expect(waiting.latest["job.tracking"]?.buttons.map((b) => b.label)).toEqual(["Resend", "Cancel", "Ask in chat"]);
    expect(JSON.stringify(waiting.latest["job.tracking"])).toContain(
      '"waiting_on":[{"entity_id":"ent_dan","display_name":"Dan"}]',
    );
    const later = new Date(Date.parse(NOW) + 60_000).toISOString();
    const retry = decide(
      job,
      {
        type: "mail_outcome",
        delivery: delivery(job),
        attempt: 1,
        outcome: { status: "retry", error: "421 Try later", code: 421, next_attempt_at: later, attempts: 1 },
      },
      context(),
    );
    expect(stateChanges(retry)).toEqual([]);
    expect(retry.events[1]!.payload).toMatchObject({
      retryable: true,
      error: { error_code: "PROVIDER_RATE_LIMIT", suggested_wait_seconds: 60 },
    });
  });
});

describe("after the end", () => {
  function finished() {
    const { history, call } = running();
    return then(
      history,
      decide(given(history), { type: "record_outcome", call, outcome: created, breaker_open: false }, context()),
    );
  }

  it("Got it records the acknowledgement and changes nothing else", () => {
    const h = finished();
    const d = decide(given(h), click(given(h), "job.ack"), context());
    expect(types(d)).toEqual(["job.acknowledged"]);
    expect(given(then(h, d)).state).toBe("completed");
  });

  it("a dispute of a finished job asks what was wrong and offers a follow-up", () => {
    const h = finished();
    const d = decide(
      given(h),
      click(given(h), "job.dispute", DAN, { dispute_reason: "wrong person" }, { text: "wrong person" }),
      context(),
    );
    expect(types(d)).toEqual(["job.disputed", "message.sent"]);
    expect(d.effects).toEqual([]);
    expect(String(d.events[1]!.payload.body_text)).toContain("follow-up");
  });

  it("a follow-up is a new job linked to this one, asking for a new time", () => {
    const h = finished();
    const job = given(h);
    const { card_id, button } = buttonOf(job, "job.follow_up");
    const d = decide(
      job,
      { type: "click", click: { card_id, button_id: button.button_id, action: button.action, by: DAN }, prepared: {} },
      context({ ids: counterIds() }),
    );
    expect(types(d)).toEqual(["job.created", "job.proposed", "message.sent"]);
    expect(d.job_id).not.toBe(job.job_id);
    expect(d.events[0]!.payload).toMatchObject({ parent_job_id: job.job_id });
    expect(given(stored(d.events)).slots.when).toBeUndefined();
  });

  it("Resend of a finished job's email is refused", () => {
    expect(refusal(() => decide(given(finished()), { type: "resend_mail" }, context()))).toBe("CONFLICT");
  });
});

describe("refusals", () => {
  it("Approve and Reject are an approver's: a member without the role is refused, an agent is not role-checked", () => {
    const h = proposed();
    const job = given(h);
    expect(refusal(() => decide(job, click(job, "job.approve", ANA), context()))).toBe("UNAUTHORIZED_ACTION");
    expect(refusal(() => decide(job, click(job, "job.reject", ANA), context()))).toBe("UNAUTHORIZED_ACTION");
    expect(
      refusal(() =>
        decide(job, click(job, "job.approve", { ...ANA, actor_type: "agent", entity_id: AGENT.entity_id }), context()),
      ),
    ).toBe("none");
  });

  it("a button that was not offered, or offered on another job's card, is refused", () => {
    const job = given(proposed());
    const other = given(proposed());
    const real = click(job, "job.approve") as Extract<JobCommand, { type: "click" }>;
    expect(refusal(() => decide(job, { ...real, click: { ...real.click, button_id: "btn_made_up" } }, context()))).toBe(
      "INVALID_PROVENANCE",
    );
    expect(
      refusal(() =>
        decide(
          job,
          { ...real, click: { ...real.click, action: { type: "job.cancel", job_id: job.job_id } } },
          context(),
        ),
      ),
    ).toBe("INVALID_PROVENANCE");
    const foreign = click(other, "job.approve");
    expect(refusal(() => decide(job, foreign, context()))).toBe("INVALID_PROVENANCE");
  });

  it("a form answer that does not fit the form is refused; Provide info also says so on a card", () => {
    const h = proposed();
    const job = given(h);
    expect(
      refusal(() => decide(job, click(job, "job.request_changes", DAN, { changes_request: " " }), context())),
    ).toBe("INVALID_INPUT");
    expect(
      refusal(() => decide(job, click(job, "job.request_changes", DAN, { changes_request: "x", extra: 1 }), context())),
    ).toBe("INVALID_INPUT");
    const { attendee_email: _e, ...slots } = FULL;
    const p = proposed("schedule_meeting", slots);
    const waiting = then(p, decide(given(p), click(given(p), "job.approve"), context()));
    const wjob = given(waiting);
    const d = decide(wjob, click(wjob, "job.provide_input", DAN, { ana_email: "not-an-address" }), context());
    expect(types(d)).toEqual(["job.progress", "message.sent"]);
    expect(d.refusal?.fields).toHaveProperty("ana_email");
    expect(d.effects).toEqual([]);
  });

  /** Every state × every action: the click is refused as ILLEGAL_JOB_TRANSITION exactly when the table says so. */
  it.each(JOB_STATES.map((s) => [s]))(
    "in state %s, exactly the actions the table allows get past the transition check",
    (state: TJobState) => {
      const base = given(proposed());
      const job: JobView = { ...base, state };
      const ctx = context();
      const c = draftsFor(ctx).cardCtx(job, AGENT);
      const actions: TCardAction[] = [
        { type: "job.approve", job_id: job.job_id },
        { type: "job.reject", job_id: job.job_id },
        { type: "job.ack", job_id: job.job_id },
        { type: "job.dispute", job_id: job.job_id },
        { type: "job.cancel", job_id: job.job_id },
        { type: "job.retry", job_id: job.job_id },
        { type: "job.switch_tool", job_id: job.job_id },
        { type: "job.follow_up", job_id: job.job_id },
        { type: "chat.ask", job_id: job.job_id, prompt_text: "why?" },
      ];
      const buttons = actions.map((action, i) => ({
        button_id: `btn_${i}_${c.card_id}`,
        label: action.type,
        style: "secondary" as const,
        action,
      }));
      const card = buildTrackingCard(c, { state: "in_progress", status_line: "every button", steps: [], buttons });
      const withCard = afterDrafts(job, draftsFor(ctx).cardDrafts(AGENT.entity_id, job.job_id, "job.progress", card));
      for (const b of buttons) {
        const input = b.action.type === "job.dispute" ? { dispute_reason: "x" } : undefined;
        const code = refusal(() =>
          decide(
            { ...withCard, state },
            {
              type: "click",
              click: {
                card_id: card.card_id,
                button_id: b.button_id,
                action: b.action,
                by: DAN,
                ...(input ? { input } : {}),
              },
              prepared: { text: "x" },
            },
            ctx,
          ),
        );
        expect(code === "ILLEGAL_JOB_TRANSITION", `${state} × ${b.action.type}`).toBe(
          !isActionAllowed(state, b.action.type),
        );
      }
    },
  );
});

describe("decide is pure", () => {
  it("the same job and command give the same decision, and the job is left untouched", () => {
    const h = proposed();
    const job = given(h);
    const before = structuredClone(job);
    const cmd = click(job, "job.approve");
    const a = decide(job, cmd, context());
    const b = decide(job, cmd, context());
    expect(a).toEqual(b);
    expect(job).toEqual(before);
  });
});

describe("an overtaken card", () => {
  it("is inert: only the job's latest card acts for it", () => {
    const { history, call } = running();
    const failed = given(
      then(
        history,
        decide(given(history), { type: "record_outcome", call, outcome: timeout(), breaker_open: false }, context()),
      ),
    );
    const older = click(failed, "job.cancel");
    // A newer card for the job: the one that speaks for it now.
    const { job, cmd } = offering(failed, { type: "job.cancel", job_id: failed.job_id });
    expect(refusal(() => decide(job, older, context()))).toBe("INVALID_PROVENANCE");
    expect(types(decide(job, cmd, context()))).toContain("job.state_changed");
  });
});
