import { LIMITS } from "../../../contracts/facts.js";
import type { TScheduledMessage } from "../../../contracts/scheduled.js";
import { AppError } from "../../shared/errors.js";
import { pickLocale, translator } from "../../shared/i18n.js";
import { GATEWAY_SYSTEM_ACTOR, notFound, type Core } from "../core.js";
import { postText } from "../conversations/post-message.js";
import { scrubText } from "../pii.js";

/**
 * Scheduled messages and reminders fall due here. The rows live in gateway_scheduled_messages
 * (a person's own until sent); the clock is injected, so tests move it instead of waiting. A due
 * row becomes one ledger commit that also marks the row sent, with an event id made from the
 * schedule's id: a send is never written twice, whether it fell due live or while the server
 * was down (boot sends those at once).
 */

interface Row {
  schedule_id: string;
  tenant_id: string;
  entity_id: string;
  conversation_id: string;
  kind: "message" | "reminder";
  body_text: string;
  about_message_id: string | null;
  send_at_ms: number;
  time_zone: string;
  status: TScheduledMessage["status"];
  message_id: string;
  created_at: string;
  done_at: string | null;
  failure: string | null;
}

/** Longest a timer is set for: a far schedule is looked at again, never trusted to one long timer. */
const MAX_TIMER_MS = 60 * 60_000;

/** Where a person's reminders are posted: a conversation of their own, one per person. */
const remindersConversationId = (entityId: string) => `cnv_reminders_${entityId}`;

export interface Scheduler {
  create(row: Omit<Row, "status" | "done_at" | "failure">): void;
  /** One of the person's schedules; anyone else's (or none) is not found. */
  get(tenantId: string, entityId: string, scheduleId: string): Row;
  list(tenantId: string, entityId: string): Row[];
  pendingCount(tenantId: string, entityId: string): number;
  update(scheduleId: string, patch: { body_text?: string; send_at_ms?: number }): void;
  cancel(scheduleId: string, at: string): void;
  /** Sends everything due now, in due order (the timer calls this; boot too). */
  runDue(): Promise<void>;
  close(): void;
}

export function view(r: Row): TScheduledMessage {
  return {
    schedule_id: r.schedule_id,
    kind: r.kind,
    conversation_id: r.conversation_id,
    body_text: r.body_text,
    ...(r.about_message_id ? { about_message_id: r.about_message_id } : {}),
    send_at: new Date(r.send_at_ms).toISOString(),
    time_zone: r.time_zone,
    status: r.status,
    message_id: r.message_id,
    ...(r.status === "sent"
      ? { sent_conversation_id: r.kind === "reminder" ? remindersConversationId(r.entity_id) : r.conversation_id }
      : {}),
    created_at: r.created_at,
    ...(r.done_at ? { done_at: r.done_at } : {}),
    ...(r.failure ? { failure: r.failure } : {}),
  };
}

export function createScheduler(core: Core): Scheduler {
  const db = core.db;
  const cols =
    "schedule_id, tenant_id, entity_id, conversation_id, kind, body_text, about_message_id, send_at_ms, time_zone, status, message_id, created_at, done_at, failure";
  const insert = db.prepare(
    `INSERT INTO gateway_scheduled_messages (${cols}) VALUES (@schedule_id, @tenant_id, @entity_id, @conversation_id, @kind, @body_text, @about_message_id, @send_at_ms, @time_zone, 'pending', @message_id, @created_at, NULL, NULL)`,
  );
  const one = db.prepare<[string], Row>(`SELECT ${cols} FROM gateway_scheduled_messages WHERE schedule_id = ?`);
  const mine = db.prepare<[string, string], Row>(
    `SELECT ${cols} FROM gateway_scheduled_messages WHERE tenant_id = ? AND entity_id = ? ORDER BY status = 'pending' DESC, send_at_ms, schedule_id`,
  );
  const countPending = db.prepare<[string, string], { n: number }>(
    "SELECT count(*) AS n FROM gateway_scheduled_messages WHERE tenant_id = ? AND entity_id = ? AND status = 'pending'",
  );
  const due = db.prepare<[number], Row>(
    `SELECT ${cols} FROM gateway_scheduled_messages WHERE status = 'pending' AND send_at_ms <= ? ORDER BY send_at_ms, schedule_id`,
  );
  const next = db.prepare<[], { at: number | null }>(
    "SELECT min(send_at_ms) AS at FROM gateway_scheduled_messages WHERE status = 'pending'",
  );
  const finish = db.prepare(
    "UPDATE gateway_scheduled_messages SET status = ?, done_at = ?, failure = ? WHERE schedule_id = ? AND status = 'pending'",
  );

  let timer: { cancel(): void } | undefined;
  let closed = false;
  let running: Promise<void> | null = null;

  const arm = () => {
    timer?.cancel();
    timer = undefined;
    if (closed) return;
    const at = next.get()?.at;
    if (at === null || at === undefined) return;
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, at - core.clock.now()));
    timer = core.clock.setTimeout(() => void scheduler.runDue(), wait);
  };

  const fail = (r: Row, why: string) => {
    finish.run("failed", core.clock.iso(), why, r.schedule_id);
  };
  const markSent = (r: Row) => () => {
    const changed = finish.run("sent", core.clock.iso(), null, r.schedule_id).changes;
    // Another run already sent it: roll the whole commit back rather than write it twice.
    if (changed !== 1) throw new AppError("CONFLICT", "Already sent", { schedule_id: r.schedule_id });
  };

  async function send(r: Row): Promise<void> {
    const state = core.tenant(r.tenant_id);
    const person = state.entities.get(r.entity_id);
    const p = { tenantId: r.tenant_id, entityId: r.entity_id };
    if (!person || person.status) return fail(r, "The person is no longer active");
    const conv = state.conversations.get(r.conversation_id);
    if (!conv?.participants.has(r.entity_id)) return fail(r, "You are no longer in this conversation");
    if (r.kind === "message") {
      await postText(core, p, r.conversation_id, { body_text: r.body_text }, undefined, {
        messageId: r.message_id,
        eventId: `evt_${r.schedule_id}`,
        extra: markSent(r),
      });
      return;
    }
    // A reminder: never the text of a message deleted since it was asked for.
    const about = r.about_message_id ? state.messages.get(r.about_message_id) : undefined;
    if (about?.deleted) return fail(r, "The message was deleted");
    // Quoted as it reads now (edited since, perhaps), as members read it in the projections.
    const now = (about?.message as { body_text?: string } | undefined)?.body_text;
    const quote = now === undefined ? r.body_text : now.length > 200 ? `${now.slice(0, 199)}…` : now;
    const t = translator(pickLocale(person.locale, core.defaultLocale));
    const home = remindersConversationId(r.entity_id);
    const events = [];
    if (!state.conversations.has(home))
      events.push(
        core.event(r.tenant_id, "conversation.created", home, GATEWAY_SYSTEM_ACTOR, {
          conversation_id: home,
          title: t("scheduled.reminders_title"),
          participants: [{ entity_id: r.entity_id }],
          kind: "group",
        }),
      );
    // Named as the person sees it in their list: a direct chat after the other person.
    const other = conv.kind === "direct" ? conv.participant_entity_ids.find((id) => id !== r.entity_id) : undefined;
    const where = (other && state.entities.get(other)?.display_name) || conv.title;
    const text = t("scheduled.reminder_body", { conversation: where, text: quote });
    const msg = core.event(r.tenant_id, "message.sent", home, GATEWAY_SYSTEM_ACTOR, {
      message_id: r.message_id,
      kind: "text",
      body_text: scrubText(r.tenant_id, text, core.office.vault).text.slice(0, LIMITS.messageChars),
      // Mentioning them is what tells them (a notification, Web Push): the reminder is for them alone.
      mentions: [{ entity_id: r.entity_id }],
    });
    msg.event_id = `evt_${r.schedule_id}`;
    events.push(msg);
    await core.commit(r.tenant_id, events, { extra: markSent(r), body: () => ({}) });
  }

  async function run(): Promise<void> {
    for (const r of due.all(core.clock.now())) {
      try {
        await send(r);
      } catch (err) {
        const e = err as AppError;
        // The ledger refused it (or it was sent meanwhile): say why on the schedule, never retry forever.
        if (one.get(r.schedule_id)?.status === "pending") fail(r, e.message ?? "Not sent");
        core.logger.warn({ schedule_id: r.schedule_id, err: e.message }, "scheduled message not sent");
      }
    }
  }

  const scheduler: Scheduler = {
    create(row) {
      insert.run(row);
      arm();
    },
    get(tenantId, entityId, scheduleId) {
      const r = one.get(scheduleId);
      if (!r || r.tenant_id !== tenantId || r.entity_id !== entityId) throw notFound("Scheduled message");
      return r;
    },
    list: (tenantId, entityId) => mine.all(tenantId, entityId),
    pendingCount: (tenantId, entityId) => countPending.get(tenantId, entityId)?.n ?? 0,
    update(scheduleId, patch) {
      if (patch.body_text !== undefined)
        db.prepare("UPDATE gateway_scheduled_messages SET body_text = ? WHERE schedule_id = ?").run(
          patch.body_text,
          scheduleId,
        );
      if (patch.send_at_ms !== undefined)
        db.prepare("UPDATE gateway_scheduled_messages SET send_at_ms = ? WHERE schedule_id = ?").run(
          patch.send_at_ms,
          scheduleId,
        );
      arm();
    },
    cancel(scheduleId, at) {
      finish.run("cancelled", at, null, scheduleId);
      arm();
    },
    runDue() {
      running ??= run().finally(() => {
        running = null;
        arm();
      });
      return running;
    },
    close() {
      closed = true;
      timer?.cancel();
    },
  };
  return scheduler;
}
