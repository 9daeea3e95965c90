import { describe, expect, it } from "vitest";
import type { TJobReplyReceivedPayload } from "../../../contracts/events.js";
import type { TJobCard } from "../../../contracts/cards.js";
import { isAppError } from "../../../src/shared/errors.js";
import type { EntityProfile } from "../../../src/office/context-builder.js";
import type { Draft } from "../../../src/office/emitter.js";
import type { JobEvent } from "../../../src/job/view.js";
import { foldJob, type JobSlots, type JobView } from "../../../src/office/job-machine.js";
import { createJobProposals } from "../../../src/office/job-proposals.js";
import { draftsFor } from "../../../src/office/jobs/basics.js";
import { decide } from "../../../src/office/jobs/decide.js";
import type { Clicker, DecideContext, Decision, JobCommand, PlannedCall } from "../../../src/office/jobs/model.js";
import { owedAnswerWrites } from "../../../src/office/jobs/replies.js";
import type { OutboxDelivery } from "../../../src/office/mail/index.js";
import type { InviteAttendee } from "../../../src/office/job-machine.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "../../../src/office/engine/retry-policy.js";
import { parseWhen } from "../../../src/office/when/index.js";

/**
 * Invitees' answers in the decider, given / when / then, with no database, mailbox or calendar:
 * a booked meeting is folded from events (`given`), an answer or a calendar write's outcome is
 * decided (`when`), and what it writes and asks the runner to do is checked (`then`).
 */

const T = "tnt_replies";
const CONV = "cnv_replies";
const NOW = "2026-03-02T09:00:00.000Z";
const TZ = "Europe/Lisbon";

const AGENT: EntityProfile = {
  entity_id: "ent_agent",
  actor_type: "agent",
  display_name: "Office",
  roles: [],
  capabilities: [],
  allowed_tools: ["calendar.create_invite", "calendar.record_answer"],
};
const DAN: Clicker = {
  entity_id: "ent_dan",
  actor_type: "human",
  display_name: "Dan",
  roles: ["member", "job_approver"],
};
const BEA = { entity_id: "ent_bea", display_name: "Bea" };
const PEOPLE = new Map<string, EntityProfile>(
  [DAN, { ...BEA, roles: ["member"] }].map((p) => [
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

const EMAIL = { redacted: "m***@example.org", hash: "blake3:0123456789abcdef", vault_ref: "vault_ref:vlt_maria" };
const MARIA: InviteAttendee = {
  name: "Maria",
  vault_ref: EMAIL.vault_ref,
  email_redacted: EMAIL.redacted,
  email_hash: EMAIL.hash,
};
const SLOTS: JobSlots = {
  attendee_name: "Maria",
  attendee_email: EMAIL,
  when: parseWhen("tomorrow at 3pm", { now: Date.parse(NOW), timezone: TZ })!,
  time_window: "tomorrow at 3pm",
  timezone: TZ,
  meeting_link: "jitsi",
  duration_minutes: 30,
};

type Calendar = NonNullable<DecideContext["answers"]>["calendar"];

function context(over: { calendar?: Calendar; mail?: DecideContext["mail"]; now?: string } = {}): DecideContext {
  let n = 0;
  return {
    now: over.now ?? NOW,
    ids: (p) => `${p}_r${++n}`,
    agent: AGENT,
    defaultTimezone: TZ,
    profileOf: (id) => PEOPLE.get(id) ?? (id === AGENT.entity_id ? AGENT : undefined),
    calendar: {
      allowed: true,
      tool: {
        name: "calendar.create_invite",
        version: "v2",
        purpose: () => "Create a 30-minute meeting",
        sanitize: () => ({ inputs: { provider: "local" }, redactions_applied: ["email_redacted"], hashes_applied: [] }),
        providerOf: () => "local",
      },
    },
    answers: {
      calendar: over.calendar ?? "write",
      tool: {
        name: "calendar.record_answer",
        version: "v1",
        purpose: (i) => `Mark ${(i as { attendee: { name: string } }).attendee.name} in the calendar event`,
        // What the ledger sees of the input: the address only as its redacted form and vault reference.
        sanitize: (i) => {
          const { attendee, ...rest } = i as { attendee: InviteAttendee };
          return {
            inputs: { ...rest, attendee: { label: attendee.name, email_ref: attendee.vault_ref } },
            redactions_applied: ["email_redacted"],
            hashes_applied: [],
          };
        },
        providerOf: () => "caldav",
      },
    },
    mail: over.mail ?? "not_configured",
    retrySchedule: DEFAULT_RETRY_SCHEDULE_MS,
  };
}

let seq = 0;
const stored = (drafts: readonly Draft[], ts = NOW): JobEvent[] =>
  drafts.map((d) => ({ ...d, event_id: d.event_id ?? `evt_s${++seq}`, ts, tenant_id: T, trace_id: "trc_replies" }));
const given = (history: JobEvent[]) => foldJob(history) as JobView;
const then = (history: JobEvent[], d: Decision, ts = NOW) => [...history, ...stored(d.events, ts)];
const types = (d: Decision) => d.events.map((e) => e.event_type);
const effectTypes = (d: Decision) => d.effects.map((e) => e.type);
const cardOf = (d: Decision) =>
  d.events.find((e) => e.event_type === "message.sent" && e.payload.kind === "card")?.payload.card as
    | TJobCard
    | undefined;
const lineOf = (d: Decision) =>
  d.events.find((e) => e.event_type === "message.sent" && e.payload.kind === "text")?.payload.body_text as
    | string
    | undefined;

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  return "none";
}

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
  artifacts: [],
  latency_ms: 12,
};

/** A meeting with Maria, approved by Dan and booked: completed, or (mail set up) still sending its email. */
function booked(mail: DecideContext["mail"] = "not_configured"): JobEvent[] {
  const ctx = context({ mail });
  const p = createJobProposals({ ids: ctx.ids, defaultTimezone: TZ, drafts: draftsFor(ctx) }).proposeDrafts(
    AGENT,
    { tenant_id: T, conversation_id: CONV },
    { title: "Schedule a call with Maria", kind: "schedule_meeting", goal: "Meet Maria", slots: SLOTS },
  );
  const h = stored(p.drafts);
  const formalize = given(h).latest["job.formalize"]!;
  const approve = formalize.buttons.find((b) => b.action.type === "job.approve")!;
  const approved = decide(
    given(h),
    {
      type: "click",
      click: { card_id: formalize.card_id, button_id: approve.button_id, action: approve.action, by: DAN },
      prepared: {},
    },
    ctx,
  );
  const h2 = then(h, approved);
  const call = (approved.effects.find((e) => e.type === "run_tool") as { call: PlannedCall }).call;
  return then(h2, decide(given(h2), { type: "record_outcome", call, outcome: created, breaker_open: false }, ctx));
}

/** The same meeting, its invite emailed by the outbox: completed, and it can be moved or cancelled. */
function mailed(): JobEvent[] {
  const h = booked("send");
  const job = given(h);
  const delivery: OutboxDelivery = {
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
  };
  const sent = {
    status: "sent" as const,
    message_id: "<obx_one@mail.example.org>",
    response: "250 2.0.0 Ok: queued as ABC",
    attempts: 1,
    rejected: 0,
  };
  return then(h, decide(job, { type: "mail_outcome", delivery, attempt: 1, outcome: sent }, context()));
}

let mails = 0;
function replyOf(answer: TJobReplyReceivedPayload["answer"], extra: Partial<TJobReplyReceivedPayload> = {}) {
  const n = ++mails;
  const reply: TJobReplyReceivedPayload = {
    job_id: "",
    event_uid: "logline-abc",
    attendee: { name: "Maria", email_redacted: EMAIL.redacted, email_hash: EMAIL.hash },
    answer,
    sequence: 0,
    message_id_sha256: `sha256:${String(n).padStart(64, "0")}`,
    ...extra,
  };
  return reply;
}

/** Maria's answer as the mailbox hands it to the job. */
function answered(
  job: JobView,
  answer: TJobReplyReceivedPayload["answer"],
  extra: Partial<TJobReplyReceivedPayload> = {},
) {
  return {
    type: "record_reply",
    reply: { ...replyOf(answer, extra), job_id: job.job_id },
    event_id: `evt_reply_${mails}`,
    attendee: MARIA,
  } satisfies JobCommand;
}

const marked = {
  ok: true as const,
  output: { event_uid: "logline-abc", partstat: "ACCEPTED", calendar: { name: "Work" } },
  artifacts: [],
  latency_ms: 30,
};
const calendarDown = {
  ok: false as const,
  error: {
    error_code: "PROVIDER_TIMEOUT" as const,
    message_safe: "The calendar did not answer in time.",
    retryable: true,
  },
  latency_ms: 2000,
};
const refused = {
  ok: false as const,
  error: { error_code: "INVALID_INPUT" as const, message_safe: "The calendar refused the change.", retryable: false },
  latency_ms: 40,
};

/** The write the decision asks the runner to carry out. */
function writeOf(d: Decision) {
  const e = d.effects.find((x) => x.type === "run_answer_write");
  if (e?.type !== "run_answer_write") throw new Error("no run_answer_write effect");
  return e;
}

/** The write's outcome, as the runner reports it. */
const outcomeOf = (d: Decision, outcome: typeof marked | typeof calendarDown | typeof refused): JobCommand => {
  const w = writeOf(d);
  return { type: "record_answer_outcome", reply_event_id: w.reply_event_id, call: w.call, outcome };
};

describe("an invitee's answer", () => {
  it("given a booked meeting and a calendar to write to, when Maria accepts, then her answer is recorded and its calendar write is called before it runs", () => {
    const h = booked();
    const job = given(h);
    const cmd = answered(job, "accepted");
    const d = decide(job, cmd, context());
    expect(types(d)).toEqual(["job.reply_received", "tool.called"]);
    expect(d.events.every((e) => e.actor.entity_id === AGENT.entity_id)).toBe(true);
    expect(d.events[0]).toMatchObject({ event_id: cmd.event_id, payload: cmd.reply });
    const called = d.events[1]!;
    expect(called.payload).toMatchObject({
      tool_name: "calendar.record_answer",
      tool_version: "v1",
      attempt: 1,
      inputs: { partstat: "ACCEPTED", event_uid: "logline-abc", reply_event_id: cmd.event_id },
    });
    expect(called.payload).not.toHaveProperty("retry_of_tool_call_id");
    // The runner gets the vault reference to write with; the ledger only its reference and no address.
    const w = writeOf(d);
    expect(w.call).toMatchObject({
      tool_name: "calendar.record_answer",
      attempt: 1,
      call_id: called.payload.tool_call_id,
    });
    expect(w.call.input).toMatchObject({ attendee: { vault_ref: EMAIL.vault_ref }, partstat: "ACCEPTED" });
    expect(effectTypes(d)).toEqual(["run_answer_write"]);
  });

  it("when the write succeeds, then its result and a Finished card say she accepted and the calendar is marked, above the booking", () => {
    const h = booked();
    const before = given(h).latest["job.finished"]!;
    const asked = decide(given(h), answered(given(h), "accepted"), context());
    const h2 = then(h, asked);
    const d = decide(given(h2), outcomeOf(asked, marked), context());
    expect(types(d)).toEqual(["tool.result", "message.sent"]);
    expect(d.events[0]!.payload).toMatchObject({
      status: "success",
      attempt: 1,
      retryable: false,
      output: marked.output,
    });
    const card = cardOf(d)!;
    expect(card.card_type).toBe("job.finished");
    expect(card.card_type === "job.finished" && card.outcome.summary).toBe(
      `Maria accepted. Marked so in the calendar “Work”. ${before.card_type === "job.finished" ? before.outcome.summary : ""}`.slice(
        0,
        600,
      ),
    );
    expect(d.effects).toEqual([]);
    expect(owedAnswerWrites(given(then(h2, d)))).toEqual([]);
  });

  it("a counter-proposal is recorded with its card at once, offering Accept new time and Keep original; nothing is written to the calendar", () => {
    const h = mailed();
    expect(given(h).state).toBe("completed");
    const cmd = answered(given(h), "counter", {
      proposed: { start: "2026-03-04T10:00:00.000Z", end: "2026-03-04T10:30:00.000Z", timezone: TZ },
    });
    const d = decide(given(h), cmd, context());
    expect(types(d)).toEqual(["job.reply_received", "message.sent"]);
    expect(d.effects).toEqual([]);
    const card = cardOf(d)!;
    expect(card.card_type === "job.finished" && card.outcome.summary).toMatch(/^Maria proposed another time: .+10:00/);
    const counters = card.buttons.filter((b) => b.action.type === "job.follow_up" && b.action.counter === cmd.event_id);
    expect(counters.length).toBe(2);
  });

  it("no calendar connected, or an agent that may not write it: the answer and a card that says why it is not marked", () => {
    const h = booked();
    const none = decide(
      given(h),
      answered(given(h), "declined", { comment: "travelling" }),
      context({ calendar: "not_connected" }),
    );
    expect(types(none)).toEqual(["job.reply_received", "message.sent"]);
    const s = cardOf(none)!;
    expect(s.card_type === "job.finished" && s.outcome.summary).toMatch(
      /^Maria declined: “travelling” Not marked in any calendar: none is connected/,
    );
    const notAllowed = decide(given(h), answered(given(h), "tentative"), context({ calendar: "not_allowed" }));
    const n = cardOf(notAllowed)!;
    expect(n.card_type === "job.finished" && n.outcome.summary).toMatch(
      /^Maria answered maybe \(tentative\)\. Not marked in the calendar: I am not allowed to/,
    );
    expect(notAllowed.effects).toEqual([]);
  });

  it("a job still sending its email gets a line in the chat, not a Finished card", () => {
    const h = booked("send");
    expect(given(h).state).toBe("in_progress");
    const d = decide(given(h), answered(given(h), "accepted"), context({ calendar: "not_connected" }));
    expect(types(d)).toEqual(["job.reply_received", "message.sent"]);
    expect(lineOf(d)).toBe("Maria accepted. Not marked in any calendar: none is connected to this workspace.");
  });

  it("the same answer twice, or an answer to a job that was never booked, is refused", () => {
    const h = booked();
    const cmd = answered(given(h), "accepted");
    const h2 = then(h, decide(given(h), cmd, context()));
    expect(refusal(() => decide(given(h2), { ...cmd, event_id: "evt_reply_again" }, context()))).toBe("CONFLICT");
    const proposal = h.slice(0, 3);
    expect(given(proposal).state).toBe("proposed");
    expect(refusal(() => decide(given(proposal), answered(given(proposal), "accepted"), context()))).toBe("CONFLICT");
  });
});

describe("the answer's calendar write", () => {
  it("given the calendar is down, when the write times out, then the card says when it tries again and that retry is armed; the retry is attempt 2, and its success marks the calendar", () => {
    const h = booked();
    const asked = decide(given(h), answered(given(h), "accepted"), context());
    const h2 = then(h, asked);
    const failed = decide(given(h2), outcomeOf(asked, calendarDown), context());
    const wait = DEFAULT_RETRY_SCHEDULE_MS[1]!;
    expect(types(failed)).toEqual(["tool.result", "message.sent"]);
    expect(failed.events[0]!.payload).toMatchObject({
      status: "error",
      attempt: 1,
      retryable: true,
      error: { error_code: "PROVIDER_TIMEOUT", suggested_wait_seconds: Math.round(wait / 1000) },
    });
    const at = new Date(Date.parse(NOW) + wait).toLocaleTimeString("en-GB", {
      timeZone: TZ,
      hour: "2-digit",
      minute: "2-digit",
    });
    const card = cardOf(failed)!;
    expect(card.card_type === "job.finished" && card.outcome.summary).toMatch(
      new RegExp(
        `^Maria accepted\\. Not marked in the calendar yet: The calendar did not answer in time\\. Trying again at ${at} \\(Europe/Lisbon\\)\\.`,
      ),
    );
    expect(failed.effects).toEqual([
      { type: "arm_answer_retry", reply_event_id: writeOf(asked).reply_event_id, delay_ms: wait, attempt: 2 },
    ]);
    const h3 = then(h2, failed);
    expect(owedAnswerWrites(given(h3)).map((r) => r.event_id)).toEqual([writeOf(asked).reply_event_id]);

    // The timer fires.
    const due = decide(
      given(h3),
      { type: "answer_retry_due", reply_event_id: writeOf(asked).reply_event_id, attempt: 2 },
      context(),
    );
    expect(types(due)).toEqual(["tool.called"]);
    expect(due.events[0]!.payload).toMatchObject({
      attempt: 2,
      retry_of_tool_call_id: writeOf(asked).call.call_id,
      idempotency_key: writeOf(asked).call.idempotency_key,
    });
    expect(writeOf(due).call).toMatchObject({ attempt: 2, call_id: due.events[0]!.payload.tool_call_id });
    const h4 = then(h3, due);
    const done = decide(given(h4), outcomeOf(due, marked), context());
    const c = cardOf(done)!;
    expect(c.card_type === "job.finished" && c.outcome.summary).toMatch(
      /^Maria accepted\. Marked so in the calendar “Work”\./,
    );
    const h5 = then(h4, done);
    expect(owedAnswerWrites(given(h5))).toEqual([]);
    // A stale timer finds nothing owed.
    expect(
      decide(given(h5), { type: "answer_retry_due", reply_event_id: writeOf(asked).reply_event_id }, context()),
    ).toEqual({
      events: [],
      effects: [],
    });
  });

  it("a write that fails for good says so and arms nothing", () => {
    const h = booked();
    const asked = decide(given(h), answered(given(h), "declined"), context());
    const h2 = then(h, asked);
    const d = decide(given(h2), outcomeOf(asked, refused), context());
    expect(d.events[0]!.payload).toMatchObject({ status: "error", retryable: false });
    const card = cardOf(d)!;
    expect(card.card_type === "job.finished" && card.outcome.summary).toMatch(
      /^Maria declined\. Not marked in the calendar: The calendar refused the change\./,
    );
    expect(d.effects).toEqual([]);
    expect(owedAnswerWrites(given(then(h2, d)))).toEqual([]);
  });

  it("a write cut off by a restart is owed, and runs again under its own id with nothing new recorded", () => {
    const h = booked();
    const asked = decide(given(h), answered(given(h), "accepted"), context());
    const h2 = then(h, asked);
    const reply = writeOf(asked).reply_event_id;
    expect(owedAnswerWrites(given(h2)).map((r) => r.event_id)).toEqual([reply]);
    const d = decide(given(h2), { type: "answer_retry_due", reply_event_id: reply }, context());
    expect(d.events).toEqual([]);
    expect(effectTypes(d)).toEqual(["run_answer_write"]);
    expect(writeOf(d).call).toEqual(writeOf(asked).call);
  });

  it("after a hand-over, a write that was running is recorded for the new holder: its result only, as Office's system actor, with no card and no retry; a due retry does nothing", () => {
    // A job still sending its email is open, so a person can take it while the answer is being written.
    const h = booked("send");
    const asked = decide(given(h), answered(given(h), "accepted"), context({ mail: "send" }));
    const h2 = then(h, asked);
    const handed = decide(given(h2), { type: "hand_over", by: DAN, to: BEA }, context({ mail: "send" }));
    expect(types(handed)).toContain("job.handed_over");
    const h3 = then(h2, handed);
    const d = decide(given(h3), outcomeOf(asked, calendarDown), context({ mail: "send" }));
    expect(types(d)).toEqual(["tool.result"]);
    expect(d.events[0]!.actor).toEqual({ entity_id: "system_office", actor_type: "system" });
    expect(d.events[0]!.payload).toMatchObject({ status: "error", tool_call_id: writeOf(asked).call.call_id });
    expect(d.effects).toEqual([]);
    const h4 = then(h3, d);
    const reply = writeOf(asked).reply_event_id;
    expect(decide(given(h4), { type: "answer_retry_due", reply_event_id: reply, attempt: 2 }, context())).toEqual({
      events: [],
      effects: [],
    });
    // Nor does the agent record a later answer on the job it gave away.
    expect(types(decide(given(h4), answered(given(h4), "declined"), context()))).toEqual([]);
  });

  it("on a job still in progress, an answer's write is not the job's step: the job's retry and resume leave it alone", () => {
    const h = booked("send");
    const asked = decide(given(h), answered(given(h), "accepted"), context({ mail: "send" }));
    const h2 = then(h, asked);
    // Cut off by a restart: boot's resume of the job's own call has nothing to run (the invite has its result).
    expect(decide(given(h2), { type: "resume_call" }, context({ mail: "send" }))).toEqual({ events: [], effects: [] });
    const failed = decide(given(h2), outcomeOf(asked, calendarDown), context({ mail: "send" }));
    const h3 = then(h2, failed);
    expect(given(h3).state).toBe("in_progress");
    // The job's own retry timer for "attempt 2" does not book the meeting again.
    expect(decide(given(h3), { type: "retry_due", attempt: 2 }, context({ mail: "send" }))).toEqual({
      events: [],
      effects: [],
    });
    expect(effectTypes(failed)).toEqual(["arm_answer_retry"]);
  });
});
