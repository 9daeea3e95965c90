import type { TStoredEvent } from "../../../contracts/events.js";
import type { Clock } from "../../shared/clock.js";
import type { ContextBuilder } from "../context-builder.js";
import type { Emitter } from "../emitter.js";
import { agentActor, CALENDAR_TOOL } from "../job-drafts.js";
import { letterHash } from "../letter-hash.js";
import type { JobSlots } from "../job-machine.js";
import { words } from "../speak.js";
import { CANCEL_TOOL, MOVE_TOOL } from "../tools/calendar-change-invite.js";
import { formatSlot } from "../when/index.js";

/**
 * Reminders of booked meetings. A person who asked for one ("remind me 15 minutes before")
 * has it in the job's slots (`remind_minutes`, recorded with the proposal); the meeting's start
 * is the newest version's `tool.result` (the invite, or a move; a cancel ends it). At that start
 * minus the lead time the agent writes a message for them (`reminder`, so they are notified),
 * every word from those records. Nothing is stored but the ledger: the schedule is rebuilt from
 * it at start, runs on the injected clock, and a reminder's event id is derived from the version
 * it reminds of, so it is written once however often the process restarts.
 */

interface Asked {
  tenant_id: string;
  conversation_id: string;
  trace_id: string;
  owner: string;
  for_entity_id: string;
  minutes: number;
  title: string;
  locale?: string;
}

interface Version {
  tenant_id: string;
  job_id: string;
  sequence: number;
  start: string;
  end: string;
  timezone: string;
  cancelled: boolean;
}

const VERSION_TOOLS = new Set([CALENDAR_TOOL, MOVE_TOOL, CANCEL_TOOL]);

interface ReminderDeps {
  context: ContextBuilder;
  emitter: Emitter;
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  jobKey: (tenantId: string, jobId: string) => string;
  onError: (err: unknown, where: string) => void;
}

/**
 * `index` is fed every event (the Office view's replay at creation, then its subscription);
 * `start` arms what is due from then on, `stop` disarms.
 */
export function createMeetingReminders(opts: { clock: Clock }) {
  const { clock } = opts;
  let deps: ReminderDeps | undefined;
  /** tenant|job → the reminder asked with it (a move or cancel job carries its parent's). */
  const asked = new Map<string, Asked>();
  /** tenant|event UID → its newest version. */
  const versions = new Map<string, Version>();
  const written = new Set<string>();
  const timers = new Map<string, { cancel(): void }>();
  const running = new Set<Promise<unknown>>();
  let live = false;

  const reminderId = (uid: string, v: Version, minutes: number) =>
    `evt_remind_${letterHash(`${v.tenant_id}|${uid}|${v.sequence}|${v.start}|${minutes}`, 24)}`;

  function index(e: TStoredEvent): void {
    if (e.event_type === "job.proposed" && e.job_id) {
      const slots = (e.payload.proposed_card.job as { slots?: JobSlots }).slots;
      const key = `${e.tenant_id}|${e.job_id}`;
      if (slots?.remind_minutes && slots.requested_by) {
        asked.set(key, {
          tenant_id: e.tenant_id,
          conversation_id: e.conversation_id,
          trace_id: e.trace_id,
          owner: e.actor.entity_id,
          for_entity_id: slots.requested_by,
          minutes: slots.remind_minutes,
          title: slots.title ?? e.payload.proposed_card.title,
          ...(slots.locale ? { locale: slots.locale } : {}),
        });
      } else asked.delete(key);
      return;
    }
    if (e.event_type === "message.sent" && e.payload.reminder) {
      written.add(e.event_id);
      return;
    }
    if (
      e.event_type !== "tool.result" ||
      !VERSION_TOOLS.has(e.payload.tool_name) ||
      e.payload.status !== "success" ||
      !e.job_id
    )
      return;
    const o = e.payload.output as
      | {
          event_uid?: string;
          sequence?: number;
          change?: string;
          scheduled_time?: { start: string; end: string; timezone: string };
        }
      | undefined;
    if (!o?.event_uid || !o.scheduled_time) return;
    const key = `${e.tenant_id}|${o.event_uid}`;
    const v: Version = {
      tenant_id: e.tenant_id,
      job_id: e.job_id,
      sequence: o.sequence ?? 0,
      ...o.scheduled_time,
      cancelled: o.change === "cancel",
    };
    const prev = versions.get(key);
    if (prev && prev.sequence > v.sequence) return;
    versions.set(key, v);
    if (live) arm(o.event_uid, v);
  }

  /** Arms (or re-arms, after a move) the reminder of one meeting; a cancelled or past one has none. */
  function arm(uid: string, v: Version): void {
    const key = `${v.tenant_id}|${uid}`;
    timers.get(key)?.cancel();
    timers.delete(key);
    const a = asked.get(`${v.tenant_id}|${v.job_id}`);
    if (!a || v.cancelled) return;
    const start = Date.parse(v.start);
    const due = start - a.minutes * 60_000;
    if (clock.now() >= start || written.has(reminderId(uid, v, a.minutes))) return;
    timers.set(
      key,
      clock.setTimeout(
        () => {
          timers.delete(key);
          const p = fire(uid, v, a)
            .catch((err) => deps?.onError(err, "meeting-reminders"))
            .finally(() => running.delete(p));
          running.add(p);
        },
        Math.max(0, due - clock.now()),
      ),
    );
  }

  async function fire(uid: string, v: Version, a: Asked): Promise<void> {
    if (!deps) return;
    const { context, emitter } = deps;
    await deps.withLock(deps.jobKey(v.tenant_id, v.job_id), async () => {
      // Still the newest version, still not written (a move or a cancel may have come meanwhile).
      const now = versions.get(`${v.tenant_id}|${uid}`);
      const id = reminderId(uid, v, a.minutes);
      if (now !== v || v.cancelled || written.has(id)) return;
      const agent = context.profile(a.tenant_id, a.owner);
      if (agent?.actor_type !== "agent" || agent.paused || agent.status) return;
      const t = words(a.locale);
      const left = Math.max(0, Math.round((Date.parse(v.start) - clock.now()) / 60_000));
      const when = formatSlot(Date.parse(v.start), Date.parse(v.end), v.timezone, a.locale);
      const person = context.profile(a.tenant_id, a.for_entity_id)?.display_name ?? "";
      const text = t(left > 0 ? "office.reminder.text" : "office.reminder.now", {
        name: person,
        title: a.title,
        minutes: left,
        when,
      });
      await emitter.emit({ tenant_id: a.tenant_id, trace_id: a.trace_id, conversation_id: a.conversation_id }, [
        {
          event_type: "message.sent",
          event_id: id,
          actor: agentActor(agent.entity_id),
          job_id: v.job_id,
          payload: {
            message_id: `msg_${id.slice(4)}`,
            kind: "text",
            body_text: text,
            reminder: {
              for_entity_id: a.for_entity_id,
              starts_at: new Date(Date.parse(v.start)).toISOString(),
              minutes_before: a.minutes,
              event_uid: uid,
            },
          },
        },
      ]);
      written.add(id);
    });
  }

  return {
    index,
    /** Arms every reminder still due, from the schedule the ledger rebuilt, and keeps arming new ones. */
    start(runtime: ReminderDeps): void {
      deps = runtime;
      if (live) return;
      live = true;
      for (const [key, v] of versions) arm(key.slice(key.indexOf("|") + 1), v);
    },
    stop(): void {
      live = false;
      for (const t of timers.values()) t.cancel();
      timers.clear();
    },
    /** When each armed reminder is due (tests, operators). */
    pending: () => [...timers.keys()],
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
