import type { TJobReplyReceivedPayload } from "../../../contracts/events.js";
import type { TFinishedCard } from "../../../contracts/cards.js";
import type { JobSlots, JobView } from "../job-machine.js";
import { type Translate, words } from "../speak.js";
import type { ChangeInviteOutput } from "../tools/calendar-change-invite.js";
import type { CreateInviteOutput } from "../tools/calendar-create-invite.js";
import { formatSlot } from "../when/index.js";

/**
 * The words that say something happened (booked, sent, invited, moved, answered, cancelled): each
 * function takes the record that proves it — a tool's recorded output, a mail server's answer, a
 * recorded reply, the click a state change records — and words only what that record holds.
 */

const EN = words();

/** What the invite tool did, each clause from its recorded output. */
export function inviteFacts(out: CreateInviteOutput, s: JobSlots, t: Translate = EN, locale = s.locale): string {
  const place =
    out.meeting.type === "jitsi"
      ? t("office.invite.place.jitsi")
      : out.meeting.type === "link"
        ? t("office.invite.place.link", { label: out.meeting.label })
        : out.meeting.type === "phone"
          ? t("office.invite.place.phone")
          : t("office.invite.place.inPerson");
  const minutes = Math.round((Date.parse(out.scheduled_time.end) - Date.parse(out.scheduled_time.start)) / 60_000);
  const name = out.calendar.name ?? t("office.invite.calendarFallback");
  const calendar = out.calendar.written
    ? out.calendar.created === false
      ? t("office.invite.calendar.already", { name })
      : t("office.invite.calendar.added", { name })
    : t("office.invite.calendar.none");
  const when = formatSlot(
    Date.parse(out.scheduled_time.start),
    Date.parse(out.scheduled_time.end),
    out.scheduled_time.timezone,
    locale,
  );
  const title = s.title ? t("office.invite.titled", { title: s.title }) : "";
  return t("office.invite.facts", { minutes, title, when, place, calendar });
}

/** The invite in one short clause, for a Tracking card's status line (≤ 300 with the mail clause). */
export function inviteFactsShort(out: CreateInviteOutput, t: Translate = EN, locale?: string): string {
  const when = formatSlot(
    Date.parse(out.scheduled_time.start),
    Date.parse(out.scheduled_time.end),
    out.scheduled_time.timezone,
    locale,
  );
  if (!out.calendar.written) return t("office.invite.short", { when });
  return t("office.invite.shortInCalendar", {
    when,
    calendar: (out.calendar.name ?? t("office.invite.calendarFallback")).slice(0, 40),
  });
}

export type MailFacts =
  | { kind: "not_configured" }
  | { kind: "not_allowed" }
  | { kind: "queued"; to: string }
  | { kind: "sent"; to: string; response: string }
  | { kind: "retrying"; to: string; error: string; next_at: string; timezone: string }
  | { kind: "refused"; to: string; error: string };

/** What happened to the email, from the mail.send results (or from the fact that none ran). */
export function mailFacts(m: MailFacts, t: Translate = EN, locale?: string): string {
  switch (m.kind) {
    case "not_configured":
      return t("office.mail.notConfigured");
    case "not_allowed":
      return t("office.mail.notAllowed");
    case "queued":
      return t("office.mail.queued", { to: m.to });
    case "sent":
      return t("office.mail.sent", { to: m.to, response: m.response.slice(0, 120) });
    case "retrying": {
      const at = new Intl.DateTimeFormat(locale === "pt" ? "pt-PT" : "en-GB", {
        timeZone: m.timezone,
        hour: "2-digit",
        minute: "2-digit",
        hour12: false,
      }).format(new Date(m.next_at));
      return t("office.mail.retrying", { error: m.error.slice(0, 100), at });
    }
    case "refused":
      return t("office.mail.refused", { error: m.error.slice(0, 100) });
  }
}

/** One answer in words, every one of them from the recorded `job.reply_received`. */
export function answerWords(
  r: Pick<TJobReplyReceivedPayload, "attendee" | "answer" | "comment" | "proposed">,
  t: Translate = EN,
  locale?: string,
): string {
  const name = r.attendee.name;
  if (r.answer === "counter" && r.proposed) {
    const when = formatSlot(Date.parse(r.proposed.start), Date.parse(r.proposed.end), r.proposed.timezone, locale);
    return r.comment
      ? t("office.reply.counterWhy", { name, when, comment: r.comment })
      : t("office.reply.counter", { name, when });
  }
  const [plain, why] = ANSWER_KEYS[r.answer];
  return r.comment ? t(why, { name, comment: r.comment }) : t(plain, { name });
}

/** Each recorded answer's words, without and with the invitee's comment. */
const ANSWER_KEYS = {
  accepted: ["office.reply.accepted", "office.reply.acceptedWhy"],
  declined: ["office.reply.declined", "office.reply.declinedWhy"],
  tentative: ["office.reply.tentative", "office.reply.tentativeWhy"],
  counter: ["office.reply.counter", "office.reply.counterWhy"],
} as const;

export type AnswerCalendar =
  | { kind: "marked"; calendar?: string | undefined }
  | { kind: "retrying"; error: string; at_ms: number; timezone: string }
  | { kind: "failed"; error: string }
  | { kind: "none" }
  | { kind: "not_allowed" };

/** "10:42 (Europe/Lisbon)": when a retry is due, in the job's zone. */
function clockTime(ms: number, timeZone: string, locale?: string): string {
  let zone = timeZone;
  let hm: string;
  try {
    hm = new Intl.DateTimeFormat(locale ?? "en", {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone,
    }).format(ms);
  } catch {
    zone = "UTC";
    hm = new Date(ms).toISOString().slice(11, 16);
  }
  return `${hm} (${zone})`;
}

/**
 * What the organizer's calendar holds after an answer, from the `calendar.record_answer` result
 * (or from the fact that none ran: no calendar connected, or the agent may not write it).
 */
export function answerCalendarWords(c: AnswerCalendar, t: Translate = EN, locale?: string): string {
  switch (c.kind) {
    case "marked":
      return t("office.reply.calendar.marked", {
        calendar: String(c.calendar ?? t("office.invite.calendarFallback")).slice(0, 60),
      });
    case "retrying":
      return t("office.reply.calendar.retrying", { error: c.error, at: clockTime(c.at_ms, c.timezone, locale) });
    case "failed":
      return t("office.reply.calendar.failed", { error: c.error });
    case "none":
      return t("office.reply.calendar.none");
    case "not_allowed":
      return t("office.reply.calendar.notAllowed");
  }
}

/** The card after a hand-over: who holds the job now, from the `job.handed_over` that records it. */
export const handedOverLine = (_held: HandedOver, person: string, t: Translate = EN) =>
  t("office.handOver.card", { person }).slice(0, 300);

/** The folded `job.handed_over`: who holds the job now. */
export type HandedOver = NonNullable<JobView["handed_over"]>;

/** A job a person cancelled: who did, from the click the `job.state_changed` records. */
export const cancelledBy = (click: CancelClick, t: Translate = EN) =>
  t("office.decide.cancelled", { name: click.by.display_name });

/** A person's Cancel click, which the decider records with the job's move to cancelled. */
export type CancelClick = { action: { type: "job.cancel" }; by: { display_name: string } };

/**
 * A later job moved or cancelled the meeting: that job's Finished card words (built from its own
 * calendar and mail results) and the time this job had booked.
 */
export const earlierVersion = (later: Pick<TFinishedCard["outcome"], "summary">, was: string, t: Translate = EN) =>
  t("office.change.earlier", { summary: later.summary, was }).slice(0, 600);

/** The calendar clause of a change, from the tool's recorded output. */
function changeCalendarWords(o: ChangeInviteOutput, t: Translate): string {
  const name = o.calendar.name ?? t("office.invite.calendarFallback");
  if (o.change === "keep") return "";
  if (!o.calendar.written) return t("office.change.calendar.none");
  if (o.change === "move") return t("office.change.calendar.moved", { name });
  return o.calendar.removed
    ? t("office.change.calendar.removed", { name })
    : t("office.change.calendar.gone", { name });
}

/**
 * What a change did, every clause from a record: the change tool's output (the new time, the
 * calendar) and, when `mailed`, the mail server's acceptance of the email; else `mailClause`
 * (queued, retrying, refused, not set up) follows as the mail step words it.
 */
export function changeWords(
  o: ChangeInviteOutput,
  slots: JobSlots,
  mail: { sent: true } | { sent: false; clause: string },
  t: Translate = words(slots.locale),
): string {
  const name = slots.attendee_name ?? t("office.outcome.theAttendee");
  const when = formatSlot(
    Date.parse(o.scheduled_time.start),
    Date.parse(o.scheduled_time.end),
    o.scheduled_time.timezone,
    slots.locale,
  );
  const cal = changeCalendarWords(o, t);
  const asked = slots.change?.counter?.attendee.name ?? name;
  if (mail.sent) {
    if (o.change === "keep") return t("office.change.kept.sent", { when, name: asked });
    return o.change === "move"
      ? t("office.change.moved.sent", { when, name, calendar: cal })
      : t("office.change.cancelled.sent", { name, calendar: cal });
  }
  const head =
    o.change === "keep"
      ? t("office.change.kept", { when })
      : o.change === "move"
        ? t("office.change.moved", { when, calendar: cal })
        : t("office.change.cancelled", { calendar: cal });
  return `${head} ${mail.clause}`.trim();
}

/** What a tool (MCP) answered, from its recorded answer: its text (cut), else the kinds of content, else nothing. */
export function toolAnswered(answer: ToolAnswer, tool: string, t: Translate = EN): string {
  const text = answer.text.trim();
  if (text)
    return t("office.mcp.answered.text", {
      tool,
      text: `${text.slice(0, 300)}${answer.text.length > 300 || answer.truncated ? "…" : ""}`,
    });
  return answer.content_types.length
    ? t("office.mcp.answered.types", { tool, types: answer.content_types.join(", ") })
    : t("office.mcp.answered.nothing", { tool });
}

/** A tool's call failed and is tried again on its own, after `delayMs`. */
export const toolRetrying = (tool: string, error: string, delayMs: number, t: Translate = EN) =>
  t("office.mcp.retrying", { tool, error: error.slice(0, 150), seconds: Math.round(delayMs / 1000) }).slice(0, 300);

/** A tool's call failed and is not tried again on its own (a tool that changes things could do its work twice). */
export const toolFailed = (tool: string, error: string, harmless: boolean, t: Translate = EN) =>
  t("office.mcp.failed", { tool, error: error.slice(0, 150), why: harmless ? "" : t("office.mcp.notAgain") });

/** Work a person did, marked done: their own words (from the `job.input_provided` that records them). */
export const handoffDone = (given: { notes: string }, t: Translate = EN) =>
  t("office.step.handoff.marked", { notes: given.notes.slice(0, 300) });

/** What an MCP tool answered, as its successful `tool.result` records it. */
export type ToolAnswer = { text: string; content_types: readonly string[]; truncated?: boolean | undefined };

/** Whom an email goes to, as the job recorded the address (redacted), else "the attendee". */
export const recipient = (redacted: string | undefined, t: Translate = EN) =>
  redacted ?? t("office.outcome.theAttendee");
