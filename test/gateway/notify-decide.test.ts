import { describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import type { TNotification } from "../../contracts/notifications.js";
import { sqliteAuthRows } from "../../src/gateway/auth/auth-rows.js";
import { migrateGateway } from "../../src/gateway/migrate.js";
import {
  createMuteStore,
  createNotifier,
  createPushSender,
  createSubscriptionStore,
  DEFAULT_PUSH_LIMITS,
} from "../../src/gateway/notify/index.js";
import { clip } from "../../src/gateway/notify/decide.js";
import { createProjector } from "../../src/gateway/projections/projector.js";
import { systemClock } from "../../src/shared/clock.js";
import { openDatabase } from "../../src/shared/db.js";
import { defaultIds } from "../../src/shared/ids.js";

/**
 * Who is told what: events go through the real projector and the real notifier (mutes in a
 * real SQLite), and the SSE `notification` deltas it returns are what the person would get.
 */
const T = "tnt_n";
const DAN = { entity_id: "ent_dan", actor_type: "human" } as const;
const ANA = { entity_id: "ent_ana", actor_type: "human" } as const;
const BEA = { entity_id: "ent_bea", actor_type: "human" } as const;
const AGENT = { entity_id: "ent_agent", actor_type: "agent" } as const;
const quiet = { info() {}, warn() {}, error() {} };

function world() {
  let seq = 0;
  const db = openDatabase({ path: ":memory:" });
  migrateGateway(db);
  const rows = sqliteAuthRows(db);
  const mutes = createMuteStore({ rows, clock: systemClock, onError: (err) => console.error(err) });
  const subscriptions = createSubscriptionStore({ rows, clock: systemClock, ids: defaultIds });
  const push = createPushSender({
    keys: { publicKey: "", privateKey: "" },
    subject: () => "mailto:postmaster@localhost",
    limits: DEFAULT_PUSH_LIMITS,
    logger: quiet,
    onGone() {},
  });
  const notifier = createNotifier({ mutes, subscriptions, push });
  const projector = createProjector();
  /** Applies one event as the gateway does live; returns who is told, and what. */
  const apply = (
    type: string,
    conversation: string,
    actor: { entity_id: string; actor_type: string },
    payload: object,
    extra: object = {},
  ) => {
    const ev = {
      event_id: `evt_${++seq}`,
      event_type: type,
      ts: new Date(Date.UTC(2026, 0, 5, 9, 0, seq)).toISOString(),
      tenant_id: T,
      trace_id: "trc",
      conversation_id: conversation,
      actor,
      payload,
      seq,
      ...extra,
    } as unknown as TStoredEvent;
    const before = notifier.before(projector.tenant(T), ev);
    projector.apply(ev);
    return notifier
      .after(projector.tenant(T)!, ev, before, true, Date.now())
      .map((d) => ({ to: [...d.audience!][0], ...(d.data.notification as TNotification) }));
  };
  const register = (e: { entity_id: string; actor_type: string }, name: string, roles: string[]) =>
    apply(
      "entity.registered",
      "cnv_workspace",
      { entity_id: "system_gateway", actor_type: "system" },
      { entity_id: e.entity_id, actor_type: e.actor_type, display_name: name, roles },
    );
  register(DAN, "Dan", ["job_approver", "admin"]);
  register(ANA, "Ana", ["member"]);
  register(BEA, "Bea", ["member"]);
  register(AGENT, "Office Scheduler", []);
  const conv = (id: string, title: string, ids: string[]) =>
    apply("conversation.created", id, DAN, {
      conversation_id: id,
      title,
      participants: ids.map((entity_id) => ({ entity_id })),
    });
  conv("cnv_dm", "Dan and Ana", [DAN.entity_id, ANA.entity_id]);
  conv("cnv_group", "Launch", [DAN.entity_id, ANA.entity_id, BEA.entity_id, AGENT.entity_id]);
  conv("cnv_agent", "Dan and the scheduler", [DAN.entity_id, AGENT.entity_id]);
  let n = 0;
  const say = (
    conversation: string,
    actor: { entity_id: string; actor_type: string },
    text: string,
    extra: object = {},
  ) =>
    apply("message.sent", conversation, actor, { message_id: `msg_${++n}`, kind: "text", body_text: text, ...extra });
  return { apply, say, mutes, seqOf: () => seq };
}

const card = (type: string, state: string, extra: object = {}) => ({
  card_id: `card_${type}_${state}`,
  job_id: "job_1",
  conversation_id: "cnv_agent",
  tenant_id: T,
  card_type: type,
  state,
  title: "Call with Maria",
  buttons: [],
  ...extra,
});

describe("who is notified", () => {
  it("a direct message tells the other person, with the sender, the stored text and a link to the conversation", () => {
    const w = world();
    const told = w.say("cnv_dm", ANA, "Can you look at the m***@acme.com thread?");
    expect(told).toEqual([
      expect.objectContaining({
        to: "ent_dan",
        kind: "direct_message",
        title: "Ana",
        body: "Can you look at the m***@acme.com thread?",
        url: "/c/cnv_dm",
        conversation_id: "cnv_dm",
      }),
    ]);
  });

  it("a long text is told folded to one line and cut at 160 characters, however much whitespace it holds", () => {
    const w = world();
    const long = `Agenda:\n${"  point   one,\t\t".repeat(400)}end`;
    const folded = long.replace(/\s+/g, " ").trim();
    expect(w.say("cnv_dm", ANA, long)[0]!.body).toBe(`${folded.slice(0, 159)}…`);
    // mostly whitespace: what is left after folding is short, so it is told whole, uncut
    expect(w.say("cnv_dm", ANA, `${" \n".repeat(3000)}short  text${"\t ".repeat(3000)}`)[0]!.body).toBe("short text");
    expect(w.say("cnv_dm", ANA, `${" ".repeat(1000)}${"x".repeat(160)}`)[0]!.body).toBe("x".repeat(160));
    expect(w.say("cnv_dm", ANA, `${" ".repeat(1000)}${"x".repeat(161)}`)[0]!.body).toBe(`${"x".repeat(159)}…`);
  });

  it("never your own action: the sender of a message is not told", () => {
    const w = world();
    expect(w.say("cnv_dm", DAN, "hello").map((t) => t.to)).toEqual(["ent_ana"]);
  });

  it("a plain group message tells nobody; a mention tells whoever is mentioned, once, and never an agent or an outsider", () => {
    const w = world();
    expect(w.say("cnv_group", ANA, "morning all")).toEqual([]);
    const told = w.say("cnv_group", ANA, "@Dan @Bea please check", {
      mentions: [
        { entity_id: "ent_dan" },
        { entity_id: "ent_bea" },
        { entity_id: "ent_dan" },
        { entity_id: "ent_agent" },
        { entity_id: "ent_ana" },
      ],
    });
    expect(told.map((t) => [t.to, t.kind, t.title])).toEqual([
      ["ent_dan", "mention", "Ana mentioned you in Launch"],
      ["ent_bea", "mention", "Ana mentioned you in Launch"],
    ]);
    // A mention of someone who is not in the conversation tells nobody.
    w.apply(
      "entity.registered",
      "cnv_workspace",
      { entity_id: "system_gateway", actor_type: "system" },
      { entity_id: "ent_zed", actor_type: "human", display_name: "Zed", roles: [] },
    );
    expect(w.say("cnv_group", ANA, "@Zed?", { mentions: [{ entity_id: "ent_zed" }] })).toEqual([]);
  });

  it("long text is cut to a short, single-line body", () => {
    const w = world();
    const [t] = w.say("cnv_dm", ANA, `first line\n${"word ".repeat(100)}`);
    expect(t!.body.length).toBeLessThanOrEqual(160);
    expect(t!.body).toMatch(/^first line word .*…$/);
  });

  it("card messages and click bubbles tell nobody (the job notifications do)", () => {
    const w = world();
    expect(
      w.apply("message.sent", "cnv_dm", ANA, {
        message_id: "m_click",
        kind: "text",
        body_text: "Ana approved it",
        action: { job_id: "job_x", card_id: "c", button_id: "b", action: { type: "job.approve" } },
      }),
    ).toEqual([]);
  });

  it("a job proposal tells who may approve it; a tracking card newly waiting on you tells you once; the end tells requester and approver", () => {
    const w = world();
    const ask = w.say("cnv_agent", DAN, "Can you schedule a call with Maria?");
    expect(ask).toEqual([]); // the agent is not told, and Dan wrote it
    const asked = `evt_${w.seqOf()}`;
    w.apply(
      "job.created",
      "cnv_agent",
      AGENT,
      { job_id: "job_1", title: "Call with Maria", conversation_id: "cnv_agent", owner_entity_id: "ent_agent" },
      { job_id: "job_1", causation_id: asked },
    );
    const proposed = w.apply(
      "job.proposed",
      "cnv_agent",
      AGENT,
      {
        job_id: "job_1",
        proposed_card: card("job.formalize", "proposed", { owner: { entity_id: "ent_agent" }, job: { goal: "g" } }),
      },
      { job_id: "job_1" },
    );
    expect(proposed).toEqual([
      expect.objectContaining({
        to: "ent_dan",
        kind: "job_approval",
        title: "Approve? Call with Maria",
        url: "/jobs/job_1",
        job_id: "job_1",
      }),
    ]);
    w.apply("job.approved", "cnv_agent", DAN, { job_id: "job_1" }, { job_id: "job_1" });
    w.apply(
      "job.state_changed",
      "cnv_agent",
      AGENT,
      { job_id: "job_1", prev_state: "approved", next_state: "in_progress" },
      { job_id: "job_1" },
    );
    const progress = (waiting: object[], status: string) =>
      w.apply(
        "job.progress",
        "cnv_agent",
        AGENT,
        {
          job_id: "job_1",
          tracking_card: card("job.tracking", "waiting_input", {
            card_id: `card_t_${status}`,
            progress: { status_line: status, waiting_on: waiting },
          }),
        },
        { job_id: "job_1" },
      );
    const waiting = progress([{ entity_id: "ent_dan", display_name: "Dan" }], "Needs Maria's email");
    expect(waiting).toEqual([
      expect.objectContaining({
        to: "ent_dan",
        kind: "job_waiting",
        title: "Waiting on you: Call with Maria",
        body: "Needs Maria's email",
      }),
    ]);
    expect(progress([{ entity_id: "ent_dan", display_name: "Dan" }], "Still needs it")).toEqual([]);
    const done = w.apply(
      "job.completed",
      "cnv_agent",
      AGENT,
      {
        job_id: "job_1",
        finished_card: card("job.finished", "completed", {
          card_id: "card_f",
          artifacts: [],
          outcome: { result: "failed", summary: "The invite was not sent: no mail server." },
        }),
      },
      { job_id: "job_1" },
    );
    expect(done).toEqual([
      expect.objectContaining({
        to: "ent_dan",
        kind: "job_failed",
        title: "Failed: Call with Maria",
        body: "The invite was not sent: no mail server.",
      }),
    ]);
  });

  it("the requester who is not the approver is told too; the approver's own approval is not news", () => {
    const w = world();
    w.say("cnv_group", ANA, "@Office Scheduler book the room", { mentions: [{ entity_id: "ent_agent" }] });
    const asked = `evt_${w.seqOf()}`;
    w.apply(
      "job.created",
      "cnv_group",
      AGENT,
      { job_id: "job_1", title: "Book the room", conversation_id: "cnv_group", owner_entity_id: "ent_agent" },
      { job_id: "job_1", causation_id: asked },
    );
    w.apply(
      "job.proposed",
      "cnv_group",
      AGENT,
      {
        job_id: "job_1",
        proposed_card: card("job.formalize", "proposed", {
          conversation_id: "cnv_group",
          title: "Book the room",
          owner: { entity_id: "ent_agent" },
          job: { goal: "g" },
        }),
      },
      { job_id: "job_1" },
    );
    expect(w.apply("job.approved", "cnv_group", DAN, { job_id: "job_1" }, { job_id: "job_1" })).toEqual([]);
    w.apply(
      "job.state_changed",
      "cnv_group",
      AGENT,
      { job_id: "job_1", prev_state: "approved", next_state: "in_progress" },
      { job_id: "job_1" },
    );
    const done = w.apply(
      "job.completed",
      "cnv_group",
      AGENT,
      {
        job_id: "job_1",
        finished_card: card("job.finished", "completed", {
          card_id: "card_f",
          artifacts: [],
          conversation_id: "cnv_group",
          title: "Book the room",
          outcome: { result: "completed", summary: "Room booked." },
        }),
      },
      { job_id: "job_1" },
    );
    expect(done.map((t) => [t.to, t.kind, t.title])).toEqual([
      ["ent_ana", "job_completed", "Done: Book the room"],
      ["ent_dan", "job_completed", "Done: Book the room"],
    ]);
  });

  it("an invitee's answer tells who asked for the meeting, in words from the recorded answer, and nobody else", () => {
    const w = world();
    w.say("cnv_group", ANA, "@Office Scheduler schedule a call with Maria", { mentions: [{ entity_id: "ent_agent" }] });
    const asked = `evt_${w.seqOf()}`;
    w.apply(
      "job.created",
      "cnv_group",
      AGENT,
      { job_id: "job_2", title: "Call with Maria", conversation_id: "cnv_group", owner_entity_id: "ent_agent" },
      { job_id: "job_2", causation_id: asked },
    );
    const answer = (a: string, extra: object = {}) =>
      w.apply(
        "job.reply_received",
        "cnv_group",
        AGENT,
        {
          job_id: "job_2",
          event_uid: "logline-abc",
          attendee: { name: "Maria", email_redacted: "m***@acme.com" },
          answer: a,
          sequence: 0,
          message_id_sha256: `sha256:${"a".repeat(64)}`,
          ...extra,
        },
        { job_id: "job_2" },
      );
    expect(answer("declined", { comment: "travelling that week" }).map((t) => [t.to, t.kind, t.title, t.body])).toEqual(
      [["ent_ana", "invite_answer", "Answer: Call with Maria", "Maria declined. “travelling that week”"]],
    );
    expect(
      answer("counter", {
        proposed: { start: "2026-01-08T10:00:00.000Z", end: "2026-01-08T10:30:00.000Z", timezone: "UTC" },
      }).map((t) => t.body),
    ).toEqual(["Maria proposed another time: 2026-01-08 10:00 UTC."]);
  });

  it("a meeting reminder tells the person it is for, in a group too, with the agent's words", () => {
    const w = world();
    w.apply(
      "job.created",
      "cnv_group",
      AGENT,
      { job_id: "job_3", title: "Call with Maria", conversation_id: "cnv_group", owner_entity_id: "ent_agent" },
      { job_id: "job_3" },
    );
    const text =
      "Reminder for Ana: “Call with Maria” starts in 15 minutes — Sun 28 Dec 2025, 15:00–15:30 (Europe/Lisbon).";
    const reminder = {
      for_entity_id: "ent_ana",
      starts_at: "2025-12-28T15:00:00.000Z",
      minutes_before: 15,
      event_uid: "logline-abc",
    };
    const told = w.apply(
      "message.sent",
      "cnv_group",
      AGENT,
      { message_id: "msg_reminder", kind: "text", body_text: text, reminder },
      { job_id: "job_3" },
    );
    expect(told.map((t) => [t.to, t.kind, t.title, t.body])).toEqual([
      ["ent_ana", "meeting_reminder", "Reminder: Call with Maria", text],
    ]);
    // The same words without `reminder` tell nobody in a group.
    expect(w.say("cnv_group", AGENT, text)).toEqual([]);
  });

  it("a muted conversation tells that person nothing, and only them; unmuting tells them again", () => {
    const w = world();
    w.mutes.set(T, "ent_dan", "cnv_group", true);
    const mentions = [{ entity_id: "ent_dan" }, { entity_id: "ent_bea" }];
    expect(w.say("cnv_group", ANA, "@Dan @Bea", { mentions }).map((t) => t.to)).toEqual(["ent_bea"]);
    w.mutes.set(T, "ent_dan", "cnv_group", false);
    expect(w.say("cnv_group", ANA, "@Dan @Bea", { mentions }).map((t) => t.to)).toEqual(["ent_dan", "ent_bea"]);
  });
});

describe("a notification's text on one line", () => {
  /** The definition: every run of whitespace one space, the ends trimmed, cut with "…". */
  const reference = (text: string, max: number) => {
    const one = text.replace(/\s+/g, " ").trim();
    return one.length > max ? `${one.slice(0, max - 1)}…` : one;
  };
  it("is what folding the whole text with \\s and trim gives, for any text and length", () => {
    const alphabet = [
      "a",
      "b",
      "é",
      "🙂",
      " ",
      "\t",
      "\n",
      "\r",
      "\v",
      "\f",
      "\u00a0",
      "\u2003",
      "\u2028",
      "\u3000",
      "\ufeff",
      "\u200b",
      "\u0085",
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 3000; k++) {
      const len = rand(k % 10 === 0 ? 600 : 40);
      let text = "";
      for (let i = 0; i < len; i++) text += alphabet[rand(alphabet.length)];
      const max = 1 + rand(30);
      expect(clip(text, max), JSON.stringify({ text, max })).toBe(reference(text, max));
    }
    for (const max of [80, 160]) {
      for (const text of [
        "",
        "   ",
        "x".repeat(max),
        ` ${"x".repeat(max)} `,
        "x".repeat(max + 1),
        `a${" ".repeat(500)}b`,
      ]) {
        expect(clip(text, max)).toBe(reference(text, max));
      }
    }
  });
});
