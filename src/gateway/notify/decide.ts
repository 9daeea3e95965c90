import type { TStoredEvent } from "../../../contracts/events.js";
import type { TNotification } from "../../../contracts/notifications.js";
import { isSpace } from "../../../contracts/contact-details.js";
import { type Locale, pickLocale, type Translate, translator } from "../../shared/i18n.js";
import { displayName, type JobRow, type TenantState } from "../projections/state.js";
import { isFollowing } from "../projections/threads.js";

/** Notification text is short: a phone shows two lines, and the ledger's text may be long. */
const BODY_MAX = 160;
const TITLE_MAX = 80;

/** Roles that may approve a proposed job (the policy pack's job_authority). */
const APPROVER_ROLES = ["job_approver", "admin"];

/** One notification for one person. */
export interface Recipient {
  entity_id: string;
  notification: TNotification;
}

/** A job as it was before the event was folded: what changed decides who is newly waited on. */
export interface JobBefore {
  waiting_on: readonly string[];
}

/**
 * Who is told about one committed event, and what they are told — a pure function of the
 * projections (already updated with the event), the job as it was before it, and who requested
 * each job. Mutes are applied by the caller.
 *
 * - a message in a direct conversation tells the other person; a mention tells whoever is
 *   mentioned (a member of the conversation); card messages and click bubbles tell nobody
 *   (the job notifications cover them);
 * - a proposed job tells the people of its conversation who may approve it;
 * - a tracking card that newly waits on someone tells them;
 * - a finished job, completed or failed, tells who requested it and who approved it;
 * - a job handed over tells the person it was handed to (it waits on them now);
 * - an invitee's answer to a meeting (job.reply_received) tells who asked for the meeting;
 * - a meeting reminder (a message with `reminder`) tells the person it is for;
 * - a reply in a thread tells the thread's followers (in a direct conversation too: no one else).
 *
 * Only people are told, never agents, and never the person whose action it was. Each is told in
 * their own language: their profile's, else the workspace default (DEFAULT_LOCALE).
 */
export function decideNotifications(
  state: TenantState,
  ev: TStoredEvent,
  ctx: { jobBefore?: JobBefore | undefined; requestedBy?: string | undefined; defaultLocale?: Locale | undefined },
): Recipient[] {
  const out = new Map<string, TNotification>();
  const conv = state.conversations.get(ev.conversation_id);
  if (!conv) return [];
  const actor = ev.actor.entity_id;
  const tell = (
    entityId: string,
    words: (t: Translate) => Omit<TNotification, "event_id" | "conversation_id" | "ts">,
  ) => {
    if (entityId === actor || out.has(entityId)) return;
    const person = state.entities.get(entityId);
    if (person?.actor_type !== "human" || !conv.participants.has(entityId)) return;
    const n = words(wordsFor(pickLocale(person.locale, ctx.defaultLocale)));
    out.set(entityId, {
      ...n,
      title: clip(n.title, TITLE_MAX),
      body: clip(n.body, BODY_MAX),
      event_id: ev.event_id,
      conversation_id: conv.conversation_id,
      ts: ev.ts,
    });
  };
  const convUrl = `/c/${encodeURIComponent(conv.conversation_id)}`;
  const sender = displayName(state, actor);

  switch (ev.event_type) {
    case "message.sent": {
      const p = ev.payload;
      if (p.card || p.action || (p.kind !== "text" && p.kind !== "artifact")) break;
      const text = p.kind === "artifact" ? (p.artifact?.title ?? "") : (p.body_text ?? "");
      // A meeting reminder is for the person who asked for it, in whatever conversation.
      if (p.reminder) {
        const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
        tell(p.reminder.for_entity_id, (t) => ({
          kind: "meeting_reminder",
          title: t("notify.reminder.title", { title: job?.title ?? conv.title }),
          body: text,
          url: job ? jobUrl(job) : convUrl,
          ...(job ? { job_id: job.job_id } : {}),
        }));
      }
      // A mention says more than "a message in our chat", so it is told first.
      for (const m of p.mentions ?? [])
        tell(m.entity_id, (t) => ({
          kind: "mention",
          title: t("notify.mention", { sender, conversation: conv.title }),
          body: text,
          url: convUrl,
        }));
      // A thread reply tells the thread's followers (the root's author and repliers, unless they stopped following).
      const thread = p.thread_root_message_id !== undefined ? state.threads.get(p.thread_root_message_id) : undefined;
      if (thread) {
        const url = `${convUrl}/t/${encodeURIComponent(thread.root_message_id)}`;
        for (const id of conv.participant_entity_ids) {
          if (isFollowing(thread, id))
            tell(id, (t) => ({
              kind: "thread_reply",
              title: t("notify.thread", { sender, conversation: conv.title }),
              body: text,
              url,
            }));
        }
      }
      // In a thread, only its followers are told (someone who stopped following hears no more of it).
      if (conv.kind === "direct" && !thread) {
        for (const id of conv.participant_entity_ids)
          tell(id, () => ({ kind: "direct_message", title: sender, body: text, url: convUrl }));
      }
      break;
    }
    case "job.proposed": {
      const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      if (job?.state !== "proposed") break;
      for (const id of conv.participant_entity_ids) {
        if (!APPROVER_ROLES.some((r) => state.entities.get(id)?.roles.includes(r))) continue;
        tell(id, (t) => ({
          kind: "job_approval",
          title: t("notify.approve.title", { title: job.title }),
          body: t("notify.approve.body", { agent: displayName(state, job.owner_entity_id), conversation: conv.title }),
          url: jobUrl(job),
          job_id: job.job_id,
        }));
      }
      break;
    }
    case "job.progress": {
      const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      if (!job?.waiting_on) break;
      const before = new Set(ctx.jobBefore?.waiting_on ?? []);
      const status = ev.payload.tracking_card.progress.status_line ?? "";
      for (const w of job.waiting_on) {
        if (before.has(w.entity_id)) continue;
        tell(w.entity_id, (t) => ({
          kind: "job_waiting",
          title: t("notify.waiting.title", { title: job.title }),
          body: status,
          url: jobUrl(job),
          job_id: job.job_id,
        }));
      }
      break;
    }
    case "job.handed_over": {
      // The job waits on the person it was handed to now (never told of their own taking it).
      const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      if (!job) break;
      const note = ev.payload.note;
      tell(ev.payload.to_entity_id, (t) => ({
        kind: "job_waiting",
        title: t("notify.handed.title", { title: job.title }),
        body: note ? t("notify.handed.bodyNote", { sender, note }) : t("notify.handed.body", { sender }),
        url: jobUrl(job),
        job_id: job.job_id,
      }));
      break;
    }
    case "job.completed": {
      const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      const outcome = ev.payload.finished_card.outcome;
      if (!job || (outcome.result !== "completed" && outcome.result !== "failed")) break;
      const kind = outcome.result === "completed" ? "job_completed" : "job_failed";
      for (const id of [ctx.requestedBy, job.approved_by]) {
        if (id)
          tell(id, (t) => ({
            kind,
            title: t(kind === "job_completed" ? "notify.done.title" : "notify.failed.title", { title: job.title }),
            body: outcome.summary ?? "",
            url: jobUrl(job),
            job_id: job.job_id,
          }));
      }
      break;
    }
    case "job.reply_received": {
      const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      if (!job || !ctx.requestedBy) break;
      const p = ev.payload;
      // Every word from the recorded answer: who answered, how, their own words, the time they proposed.
      const body = (t: Translate) => {
        const line = t(`notify.reply.${p.answer}`, {
          name: p.attendee.name,
          ...(p.proposed ? { when: `${p.proposed.start.slice(0, 16).replace("T", " ")} UTC` } : {}),
        });
        return p.comment ? `${line} “${p.comment}”` : line;
      };
      tell(ctx.requestedBy, (t) => ({
        kind: "invite_answer",
        title: t("notify.reply.title", { title: job.title }),
        body: body(t),
        url: jobUrl(job),
        job_id: job.job_id,
      }));
      break;
    }
    default:
      break;
  }
  return [...out].map(([entity_id, notification]) => ({ entity_id, notification }));
}

const translators = new Map<Locale, Translate>();
function wordsFor(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) {
    t = translator(locale);
    translators.set(locale, t);
  }
  return t;
}

const jobUrl = (job: JobRow) => `/jobs/${encodeURIComponent(job.job_id)}`;

/**
 * `text` on one line (each run of whitespace one space, the ends trimmed), cut to `max` with "…".
 * Only the head that can be shown is walked, in one pass and without a pattern: the fold of a
 * prefix is a prefix of the fold, so once the folded head is longer than `max` the rest cannot
 * change the result.
 */
export function clip(text: string, max: number): string {
  let out = "";
  let from = -1;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) {
      if (from >= 0) {
        out = out ? `${out} ${text.slice(from, i)}` : text.slice(from, i);
        from = -1;
      }
    } else {
      if (from < 0) from = i;
      if (out.length + (out ? 1 : 0) + (i - from + 1) > max) {
        const head = out ? `${out} ${text.slice(from, i + 1)}` : text.slice(from, i + 1);
        return `${head.slice(0, max - 1)}…`;
      }
    }
  }
  if (from >= 0) out = out ? `${out} ${text.slice(from)}` : text.slice(from);
  return out;
}
