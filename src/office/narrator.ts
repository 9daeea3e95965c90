import type { TInputSchema, TStep } from "../../contracts/cards.js";
import type { JobSlots, JobView } from "./job-machine.js";
import type { CreateInviteOutput } from "./tools/calendar-create-invite.js";
import { MEETING_OPTIONS, meetingLabel } from "./tools/meeting-rooms.js";
import { formatSlot } from "./when/index.js";
import type { ToolErrorCode } from "./tools/tool.js";

/**
 * Office's voice: short, certain, no apologies. Every line a person reads on a card or in a
 * reply is written here, so the copy stays consistent across cards and chat.
 */

export const slug = (name?: string) =>
  (name ?? "attendee")
    .split(/\s+/)[0]!
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z0-9]/g, "") || "attendee";
const possessive = (name?: string) => (name ? `${name.split(/\s+/)[0]}’s` : "the attendee’s");

const MISSING_LABEL: Record<string, (s: JobSlots) => string> = {
  attendee_email: (s) => `${possessive(s.attendee_name)} email`,
  time_window: () => "preferred days/times",
  timezone: () => "timezone",
  meeting_link: () => "meeting place",
  meeting_url: (s) => `the ${s.link_label ?? "meeting"} link`,
};

export function waitingStatus(missing: string[], s: JobSlots): string {
  return `Waiting for: ${missing.map((k) => MISSING_LABEL[k]?.(s) ?? k).join(" + ")}`;
}

export function meetingSteps(phase: "collect" | "create" | "send" | "done" | "retry" | "blocked_tool" | "blocked_send"): TStep[] {
  const who = "Send invite";
  const st = (collect: TStep["state"], create: TStep["state"], send: TStep["state"]): TStep[] => [
    { key: "collect_inputs", label: "Collect details", state: collect },
    { key: "create_invite", label: "Create calendar invite", state: create },
    { key: "send_invite", label: who, state: send },
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
export function meetingInputSchema(missing: string[], s: JobSlots, defaultTz: string, errors: Record<string, string> = {}, given: Record<string, unknown> = {}): TInputSchema {
  const who = s.attendee_name?.split(/\s+/)[0] ?? "Attendee";
  const fields: TInputSchema["fields"] = [];
  const err = (k: string) => (errors[k] ? { error: errors[k] } : {});
  const prev = (k: string) => (typeof given[k] === "string" && !errors[k] ? { default_value: given[k] as string } : {});
  if (missing.includes("attendee_email"))
    fields.push({
      key: `${slug(s.attendee_name)}_email`,
      label: `${who} email`,
      type: "string",
      required: true,
      placeholder: "name at company",
      ...err(`${slug(s.attendee_name)}_email`),
    });
  if (missing.includes("time_window"))
    fields.push({
      key: "time_window",
      label: "Preferred days/times",
      type: "multiline",
      required: true,
      placeholder: "Tue–Thu, 14:00–17:00",
      ...prev("time_window"),
      ...err("time_window"),
    });
  if (missing.includes("timezone"))
    fields.push({
      key: "timezone",
      label: "Timezone",
      type: "string",
      required: true,
      placeholder: defaultTz,
      default_value: defaultTz,
      hint: "IANA name, e.g. Europe/Lisbon",
      ...err("timezone"),
    });
  if (missing.includes("meeting_link")) fields.push({ key: "meeting_link", label: "Where to meet", type: "select", required: true, options: LINK_OPTIONS, ...err("meeting_link") });
  if (missing.includes("meeting_url") || missing.includes("meeting_link"))
    fields.push({
      key: "meeting_url",
      label: `Paste a ${s.link_label ?? "meeting"} link`,
      type: "string",
      required: missing.includes("meeting_url"),
      placeholder: "https://…",
      hint: "Only if you chose “Paste a link”: your own Zoom, Google Meet or Teams meeting",
      ...err("meeting_url"),
    });
  return { fields };
}

export function retryStatus(code: ToolErrorCode, delayMs: number): string {
  const when = delayMs < 60_000 ? `~${Math.round(delayMs / 1000)} seconds` : `~${Math.round(delayMs / 60_000)} minute${delayMs >= 120_000 ? "s" : ""}`;
  const what: Record<string, string> = {
    PROVIDER_TIMEOUT: "Calendar provider timed out.",
    PROVIDER_RATE_LIMIT: "Calendar provider is rate limiting us.",
    PROVIDER_UNAVAILABLE: "Calendar provider is unavailable.",
    UNKNOWN: "Calendar provider had an unexpected problem.",
  };
  return `${what[code] ?? "Calendar provider failed."} Retrying in ${when}.`;
}

export const AUTH_STATUS = "The calendar server refused the sign-in. Fix it to continue.";
export const INVALID_STATUS = "I can’t use that email/time window. Please confirm the details.";
export const EXHAUSTED_SUMMARY = "I couldn’t finish because the calendar provider is unavailable right now.";

/** The other meeting place "Switch" offers: one that needs no outside service at all. */
export function alternativeLink(current?: string): { value: string; label: string } {
  return current === "phone" ? { value: "jitsi", label: meetingLabel("jitsi") } : { value: "phone", label: meetingLabel("phone") };
}

/** What the invite tool did, each clause from its recorded output. */
export function inviteFacts(out: CreateInviteOutput, s: JobSlots): string {
  const place =
    out.meeting.type === "jitsi"
      ? " with a Jitsi Meet room"
      : out.meeting.type === "link"
        ? ` with the ${out.meeting.label} you pasted`
        : out.meeting.type === "phone"
          ? " (by phone)"
          : " (in person)";
  const minutes = Math.round((Date.parse(out.scheduled_time.end) - Date.parse(out.scheduled_time.start)) / 60_000);
  const calendar = out.calendar.written
    ? out.calendar.created === false
      ? ` It was already in the calendar “${out.calendar.name ?? "calendar"}”.`
      : ` Added to the calendar “${out.calendar.name ?? "calendar"}”.`
    : " Not added to any calendar: none is connected (CALDAV_URL).";
  return `Created a ${minutes}-minute invite${s.title ? ` “${s.title}”` : ""} for ${formatSlot(Date.parse(out.scheduled_time.start), Date.parse(out.scheduled_time.end), out.scheduled_time.timezone)}${place}.${calendar}`;
}

/** The invite in one short clause, for a Tracking card's status line (≤ 300 with the mail clause). */
export function inviteFactsShort(out: CreateInviteOutput): string {
  const when = formatSlot(Date.parse(out.scheduled_time.start), Date.parse(out.scheduled_time.end), out.scheduled_time.timezone);
  return `Invite created for ${when}${out.calendar.written ? `, in the calendar “${(out.calendar.name ?? "calendar").slice(0, 40)}”` : ""}.`;
}

export type MailFacts =
  | { kind: "not_configured" }
  | { kind: "not_allowed" }
  | { kind: "queued"; to: string }
  | { kind: "sent"; to: string; response: string }
  | { kind: "retrying"; to: string; error: string; next_at: string; timezone: string }
  | { kind: "refused"; to: string; error: string };

/** What happened to the email, from the mail.send results (or from the fact that none ran). */
export function mailFacts(m: MailFacts): string {
  switch (m.kind) {
    case "not_configured":
      return "Not emailed: mail is not set up on this server (SMTP_URL). Download invite.ics below and send it yourself.";
    case "not_allowed":
      return "Not emailed: I am not allowed to send mail (mail.send). Download invite.ics below and send it yourself.";
    case "queued":
      return `Emailing it to ${m.to}…`;
    case "sent":
      return `Emailed it to ${m.to}; their mail server accepted it (${m.response.slice(0, 120)}).`;
    case "retrying": {
      const at = new Intl.DateTimeFormat("en-GB", { timeZone: m.timezone, hour: "2-digit", minute: "2-digit", hour12: false }).format(new Date(m.next_at));
      return `Not emailed yet: ${m.error.slice(0, 100)}. Trying again at ${at}.`;
    }
    case "refused":
      return `Not emailed: the mail server refused it (${m.error.slice(0, 100)}). Resend, or download invite.ics and send it yourself.`;
  }
}

const STATE_WORDS: Record<string, string> = {
  proposed: "waiting for your approval",
  approved: "approved",
  in_progress: "in progress",
  waiting_input: "waiting for your input",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
  rejected: "rejected",
};

export function answerAbout(job: JobView, prompt: string): string {
  const state = STATE_WORDS[job.state] ?? job.state;
  const base = `“${job.title}” is ${state}.`;
  if (/change/i.test(prompt)) return `${base} Tell me what to change — duration, days/times, timezone or link type — and I’ll update the proposal.`;
  if (/connect/i.test(prompt))
    return `${base} The calendar server refused the sign-in: an admin checks CALDAV_USERNAME and CALDAV_PASSWORD, then “Connect calendar” on the card tries again.`;
  if (/refused/i.test(prompt))
    return `${base} The mail server refused the invite; its answer is on the card. Resend once the address or the server is fixed, or download the .ics and send it yourself.`;
  if (/fail|why/i.test(prompt))
    return `${base} ${job.tools.at(-1)?.error_code ? `The last tool call failed (${job.tools.at(-1)!.error_code}).` : "Nothing failed yet."} You can try later, switch tool, or close it.`;
  if (job.state === "waiting_input") return `${base} I need a few details first — use “Provide info” on the card or just tell me here.`;
  return `${base} Ask me anything about it here; the job keeps its place.`;
}

/** What an agent can actually do, from the tools it may use; nothing it cannot. */
function capabilities(allowedTools: readonly string[]): string {
  return allowedTools.includes("calendar.create_invite") ? "I can schedule meetings and send calendar invites" : "I have no tools to do work with yet";
}

export function declineWork(agent: { allowed_tools: readonly string[] }, request: string, handTo?: string): string {
  const offer = handTo
    ? ` Shall I hand “${request}” to ${handTo}? It becomes a job in their chat with me.`
    : " It needs a person, and I found nobody (an approver or admin in a chat with me) to hand it to.";
  return `I can’t do that myself. ${capabilities(agent.allowed_tools)}.${offer}`;
}

export function noHandoffTarget(name?: string): string {
  return name ? `I can’t hand it to ${name}: they are not an approver or admin in a chat with me.` : "I found nobody (an approver or admin in a chat with me) to hand it to.";
}

export function handoffGoal(requester: string, request: string): string {
  return `${requester} asked for this and no tool of mine can do it: ${request}. Approve to take it on; mark it done here when it is.`.slice(0, 500);
}

export function handedOff(person: string, title: string): string {
  return `Handed to ${person}: it is waiting in their chat with me as “${title}”.`;
}
