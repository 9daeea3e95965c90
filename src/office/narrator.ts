import type { TInputSchema, TStep } from "../../contracts/cards.js";
import type { TJobReplyReceivedPayload } from "../../contracts/events.js";
import type { JobSlots, JobView } from "./job-machine.js";
import { type Translate, words } from "./speak.js";
import type { ChangeInviteOutput } from "./tools/calendar-change-invite.js";
import type { CreateInviteOutput } from "./tools/calendar-create-invite.js";
import { MEETING_OPTIONS, meetingLabel, meetingOptions } from "./tools/meeting-rooms.js";
import { formatSlot } from "./when/index.js";
import type { ToolErrorCode } from "./tools/tool.js";

/**
 * Office's voice: short, certain, no apologies. Every line a person reads on a card or in a
 * reply is written here, from the message catalogs (locales/<lang>/office-*.json), so the copy
 * stays consistent across cards and chat. Each function takes the formatter of the language it
 * speaks (the job's or the person's); English when none is given.
 */

const EN = words();

export const slug = (name?: string) =>
  (name ?? "attendee")
    .split(/\s+/)[0]!
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z0-9]/g, "") || "attendee";
const firstName = (name?: string) => name?.split(/\s+/)[0] ?? "";

const MISSING_LABEL: Record<string, (s: JobSlots, t: Translate) => string> = {
  attendee_email: (s, t) =>
    s.attendee_name
      ? t("office.missing.email", { name: firstName(s.attendee_name) })
      : t("office.missing.emailUnnamed"),
  time_window: (_s, t) => t("office.missing.timeWindow"),
  timezone: (_s, t) => t("office.missing.timezone"),
  meeting_link: (_s, t) => t("office.missing.meetingLink"),
  meeting_url: (s, t) => t("office.missing.meetingUrl", { service: s.link_label ?? t("office.meeting.word") }),
};

export function waitingStatus(missing: string[], s: JobSlots, t: Translate = EN): string {
  return t("office.waiting.for", { items: missing.map((k) => MISSING_LABEL[k]?.(s, t) ?? k).join(" + ") });
}

export function meetingSteps(
  phase: "collect" | "create" | "send" | "done" | "retry" | "blocked_tool" | "blocked_send",
  t: Translate = EN,
): TStep[] {
  const st = (collect: TStep["state"], create: TStep["state"], send: TStep["state"]): TStep[] => [
    { key: "collect_inputs", label: t("office.step.collect"), state: collect },
    { key: "create_invite", label: t("office.step.create"), state: create },
    { key: "send_invite", label: t("office.step.send"), state: send },
  ];
  if (phase === "collect") return st("blocked", "todo", "todo");
  if (phase === "create") return st("done", "doing", "todo");
  if (phase === "retry") return st("done", "doing", "todo");
  if (phase === "blocked_tool") return st("done", "blocked", "todo");
  if (phase === "send") return st("done", "done", "doing");
  if (phase === "blocked_send") return st("done", "done", "blocked");
  return st("done", "done", "done");
}

/** The meeting places this server can really offer. */
export const LINK_OPTIONS = MEETING_OPTIONS;

/** The Provide info form: only what is missing (or wrong), with what is known prefilled. */
export function meetingInputSchema(
  missing: string[],
  s: JobSlots,
  defaultTz: string,
  errors: Record<string, string> = {},
  given: Record<string, unknown> = {},
  t: Translate = EN,
): TInputSchema {
  const fields: TInputSchema["fields"] = [];
  const err = (k: string) => (errors[k] ? { error: errors[k] } : {});
  const prev = (k: string) => (typeof given[k] === "string" && !errors[k] ? { default_value: given[k] as string } : {});
  if (missing.includes("attendee_email"))
    fields.push({
      key: `${slug(s.attendee_name)}_email`,
      label: t("office.form.email.label", { name: firstName(s.attendee_name) || t("office.form.attendee") }),
      type: "string",
      required: true,
      placeholder: t("office.form.email.placeholder"),
      ...err(`${slug(s.attendee_name)}_email`),
    });
  if (missing.includes("time_window"))
    fields.push({
      key: "time_window",
      label: t("office.form.timeWindow.label"),
      type: "multiline",
      required: true,
      placeholder: t("office.form.timeWindow.placeholder"),
      ...prev("time_window"),
      ...err("time_window"),
    });
  if (missing.includes("timezone"))
    fields.push({
      key: "timezone",
      label: t("office.form.timezone.label"),
      type: "string",
      required: true,
      placeholder: defaultTz,
      default_value: defaultTz,
      hint: t("office.form.timezone.hint"),
      ...err("timezone"),
    });
  if (missing.includes("meeting_link"))
    fields.push({
      key: "meeting_link",
      label: t("office.form.meetingLink.label"),
      type: "select",
      required: true,
      options: meetingOptions(t),
      ...err("meeting_link"),
    });
  if (missing.includes("meeting_url") || missing.includes("meeting_link"))
    fields.push({
      key: "meeting_url",
      label: t("office.form.meetingUrl.label", { service: s.link_label ?? t("office.meeting.word") }),
      type: "string",
      required: missing.includes("meeting_url"),
      placeholder: "https://…",
      hint: t("office.form.meetingUrl.hint"),
      ...err("meeting_url"),
    });
  return { fields };
}

const RETRY_WHAT: Record<string, string> = {
  PROVIDER_TIMEOUT: "office.retry.timeout",
  PROVIDER_RATE_LIMIT: "office.retry.rateLimit",
  PROVIDER_UNAVAILABLE: "office.retry.unavailable",
  UNKNOWN: "office.retry.unknown",
};

export function retryStatus(code: ToolErrorCode, delayMs: number, t: Translate = EN): string {
  // "minutes" from two minutes of delay on, as the words always were (90 s reads "~2 minute").
  const when =
    delayMs < 60_000
      ? t("office.retry.seconds", { count: Math.round(delayMs / 1000) })
      : t("office.retry.minutes", { count: Math.round(delayMs / 60_000), unit: delayMs >= 120_000 ? "many" : "one" });
  return t("office.retry.status", { what: t(RETRY_WHAT[code] ?? "office.retry.failed"), when });
}

export const authStatus = (t: Translate = EN) => t("office.status.auth");
export const invalidStatus = (t: Translate = EN) => t("office.status.invalid");
export const exhaustedSummary = (t: Translate = EN) => t("office.status.exhausted");

/** The other meeting place "Switch" offers: one that needs no outside service at all. */
export function alternativeLink(current?: string, t: Translate = EN): { value: string; label: string } {
  return current === "phone"
    ? { value: "jitsi", label: meetingLabel("jitsi", undefined, t) }
    : { value: "phone", label: meetingLabel("phone", undefined, t) };
}

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
  return r.comment
    ? t(`office.reply.${r.answer}Why`, { name, comment: r.comment })
    : t(`office.reply.${r.answer}`, { name });
}

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
export const handedOverLine = (person: string, t: Translate = EN) =>
  t("office.handOver.card", { person }).slice(0, 300);

/** A job a person cancelled: who did, from the click the `job.state_changed` records. */
export const cancelledBy = (name: string, t: Translate = EN) => t("office.decide.cancelled", { name });

/** A dispute paused the job: its reason as the person typed it (scrubbed), and why the job waits. */
export const disputedPause = (reason: string, t: Translate = EN) => ({
  status_line: t("office.decide.paused", { reason }).slice(0, 300),
  blockers: [t("office.decide.disputed")],
});

/**
 * A later job moved or cancelled the meeting: that job's Finished card words (built from its own
 * calendar and mail results) and the time this job had booked.
 */
export const earlierVersion = (summary: string, was: string, t: Translate = EN) =>
  t("office.change.earlier", { summary, was }).slice(0, 600);

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
export function toolAnswered(
  tool: string,
  answer: { text: string; content_types: readonly string[]; truncated?: boolean | undefined },
  t: Translate = EN,
): string {
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
export const handoffDone = (notes: string, t: Translate = EN) =>
  t("office.step.handoff.marked", { notes: notes.slice(0, 300) });

const STATE_WORDS = new Set([
  "proposed",
  "approved",
  "in_progress",
  "waiting_input",
  "completed",
  "failed",
  "cancelled",
  "rejected",
]);

/** A job state in words ("waiting for your input"). */
export function stateWords(state: string, t: Translate = EN): string {
  return STATE_WORDS.has(state) ? t(`office.state.${state}`) : state;
}

export function answerAbout(job: JobView, prompt: string, t: Translate = EN): string {
  const base = t("office.about.base", { title: job.title, state: stateWords(job.state, t) });
  const more = (key: string, values?: Record<string, string>) => `${base} ${t(key, values)}`;
  if (/change|mudar|alterar/i.test(prompt)) return more("office.about.change");
  if (/connect|ligo|ligar/i.test(prompt)) return more("office.about.connect");
  if (/refused|recusad/i.test(prompt)) return more("office.about.refused");
  if (/fail|why|falhou|porque/i.test(prompt)) {
    const code = job.tools.at(-1)?.error_code;
    return more("office.about.failed", {
      failed: code ? t("office.about.lastFailed", { code }) : t("office.about.nothingFailed"),
    });
  }
  if (job.state === "waiting_input") return more("office.about.waiting");
  return more("office.about.other");
}

/** What an agent can actually do, from the tools it may use; nothing it cannot. */
function capabilities(allowedTools: readonly string[], t: Translate): string {
  return allowedTools.includes("calendar.create_invite")
    ? t("office.decline.canSchedule")
    : t("office.decline.noTools");
}

export function declineWork(
  agent: { allowed_tools: readonly string[] },
  request: string,
  handTo?: string,
  t: Translate = EN,
  toSelf = false,
): string {
  const offer = toSelf
    ? t("office.decline.offerSelf", { request })
    : handTo
      ? t("office.decline.offer", { request, person: handTo })
      : t("office.decline.nobody");
  return t("office.decline.text", { capabilities: capabilities(agent.allowed_tools, t), offer });
}

export function noHandoffTarget(name?: string, t: Translate = EN): string {
  return name ? t("office.handoff.notTarget", { name }) : t("office.handoff.nobody");
}

export function handoffGoal(requester: string, request: string, t: Translate = EN): string {
  return t("office.handoff.goal", { requester, request }).slice(0, 500);
}

export function handedOff(person: string, title: string, t: Translate = EN): string {
  return t("office.handoff.done", { person, title });
}
