import { isOpenState } from "../../job/transitions.js";
import type { Decision, PlanFrame, Planner, SlotValues } from "./planner.js";
import { extractMeetingSlots } from "./slots.js";
import { describeWhen, parseWhen } from "../when/index.js";
import { meetingNounWords, meetingProposal, stateWords } from "../narrator.js";
import { type Translate, words } from "../speak.js";
import { GREETING_PT, isSchedulingPt, meetingNounPt, mentionsMeetingPt, THANKS_PT, WORK_VERB_PT } from "./rules-pt.js";

/**
 * The default planner: deterministic, no network. It proposes a job only when the message is
 * clearly a request for work, answers chat briefly, and asks when it cannot tell (Office never
 * guesses a job into existence).
 */

const SCHEDULE_VERB =
  /\b(schedule|book|set(?:ting)? up|arrange|organi[sz]e|plan|put|find (?:a )?time|get|line up|fix up|sort out|slot in|pencil in|need|want|have|can we (?:do|have))\b/i;
const MEETING_NOUN =
  /\b(call|meeting|meet(?:ing)?|sync|demo|catch[- ]?up|1:1|one[- ]on[- ]one|interview|review|stand-?up|session|appointment|check[- ]in|chat|video call|conference)\b/i;
const STRONG_SCHEDULE =
  /\b(schedule|book|arrange|set up|find (?:a )?time|pencil in|put .* on (?:the|my) calendar|send (?:an? )?(?:calendar )?invite)\b/i;
const WORK_VERB =
  /^(?:(?:can|could|would|will) you\s+|please\s+|pls\s+|i need you to\s+|i'd like you to\s+|go ahead and\s+|kindly\s+)*(send|call|prepare|draft|remind|order|update|write|create|email|reply|compile|file|pay|research|summari[sz]e|translate|check|review|follow up|invoice|submit|renew|cancel|ship|collect|reconcile|post|publish|contact|notify|book)\b/i;
const GREETING = /^(hi|hello|hey|yo|good (morning|afternoon|evening)|hiya|howdy|ola|olá)\b/i;
const THANKS = /\b(thanks|thank you|thx|cheers|great job|nice work|well done|awesome|perfect)\b/i;
const CAPABILITIES = /\b(what can you do|who are you|what do you do|help me understand|what are you)\b/i;
const VAGUE_HELP = /^(can you help|could you help|i need help|help)\b/i;

const NOUN_TITLE: Record<string, string> = {
  meeting: "meeting",
  meet: "meeting",
  sync: "sync",
  demo: "demo",
  "1:1": "1:1",
  interview: "interview",
  review: "review",
  appointment: "appointment",
  session: "session",
};

function meetingNoun(text: string): string {
  const m = MEETING_NOUN.exec(text);
  const raw = (m?.[1] ?? "meeting").toLowerCase();
  if (/catch/.test(raw)) return "catch-up";
  if (/check/.test(raw)) return "check-in";
  if (/one/.test(raw)) return "1:1";
  if (/stand/.test(raw)) return "stand-up";
  if (/video call|call|chat|conference/.test(raw)) return "call";
  return NOUN_TITLE[raw] ?? "meeting";
}

/** "call with Maria", "meet Ana", "catch up with Pedro", "sync with Lena", "talk to Rui": a meeting verb and a person. */
const MEET_VERB_WITH =
  /\b(?:[Cc]all|[Mm]eet|[Cc]atch[- ]?up|[Ss]ync|[Tt]alk|[Ss]peak|[Cc]hat)\s+(?:up\s+)?(?:with\s+|to\s+)?[A-ZÀ-Ý]/;

function isScheduling(text: string): boolean {
  // A meeting verb with a person and a time is scheduling, with or without "schedule" in front.
  if (MEET_VERB_WITH.test(text) && /\bwith\s+[A-ZÀ-Ý]|\b(?:meet|call)\s+[A-ZÀ-Ý]/.test(text) && hasTime(text))
    return true;
  if (STRONG_SCHEDULE.test(text) && (MEETING_NOUN.test(text) || /\binvite|calendar\b/i.test(text))) return true;
  if (SCHEDULE_VERB.test(text) && MEETING_NOUN.test(text) && /\bwith\s+[A-ZÀ-Ý]/.test(text)) return true;
  return /\b(set up|arrange|schedule|book)\b/i.test(text) && /\bwith\s+[A-ZÀ-Ý]/.test(text);
}

/** The words name a time or a day ("tomorrow at 17:30", "on Monday at 10am"). */
function hasTime(text: string): boolean {
  const s = extractMeetingSlots(text, "en");
  return Boolean(s.time_window || s.day_hint);
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function proposeMeeting(text: string, frame: PlanFrame, lang: string, t: Translate): Decision {
  const slots: SlotValues = extractMeetingSlots(text, lang);
  const noun = meetingNounWords(lang === "pt" ? meetingNounPt(text) : meetingNoun(text), t);
  const window = slots.time_window
    ? parseWhen(slots.time_window, {
        now: Date.parse(frame.now),
        timezone: slots.timezone ?? frame.default_timezone,
        locale: lang,
      })
    : null;
  const words = meetingProposal(
    {
      noun,
      who: slots.attendee_name,
      minutes: slots.duration_minutes,
      ...(slots.day_hint ? { hint: slots.day_hint } : window ? { window: describeWhen(window, lang) } : {}),
    },
    t,
  );
  slots.title = words.slot_title;
  return {
    type: "propose_job",
    kind: "schedule_meeting",
    title: words.title,
    goal: words.goal,
    slots,
    constraints: [words.constraint],
    rationale: "Scheduling request: verb + meeting noun",
  };
}

/** The request as a short phrase: from the work verb on, without pleasantries or end punctuation. */
function requestPhrase(text: string, verbAt: number): string {
  const phrase = text
    .slice(verbAt)
    .replace(/\b(please|pls|for me|thanks|thank you)\b|(?<![\p{L}])(?:por favor|obrigad[oa])(?![\p{L}])/giu, "")
    .replace(/[?.!\s]+$/g, "")
    .replace(/\s{2,}/g, " ")
    .trim();
  return cap(phrase).slice(0, 200);
}

/** "Hand it to Dan: send invoice 123" (the offer's choice sends this) or "hand this to a person: …". */
const HANDOFF =
  /^hand (?:it|this|that)?\s*(?:over\s+)?to\s+(?:a person|someone|([A-ZÀ-Ý][\p{L}'’-]*))\s*[:—–-]\s*(.+)$/iu;
/** "Passar a Ana: enviar a fatura 123" (the Portuguese offer's choice) or "passa isto a uma pessoa: …". */
const HANDOFF_PT =
  /^(?:passa|passar|entrega|entregar)(?:-o|-a|-lo|-la)?\s+(?:(?:isto|isso)\s+)?(?:para\s+(?:[ao]\s+)?|à\s+|ao\s+|a\s+)(?:uma pessoa|algu[ée]m|([A-ZÀ-Ý][\p{L}'’-]*))\s*[:—–-]\s*(.+)$/iu;

export function planRules(frame: PlanFrame): Decision {
  // Replies in the language of the person answered; their words read in it too, and Portuguese
  // scheduling words are understood from anyone.
  const lang = frame.locale ?? "en";
  const t = words(lang);
  const text = frame.text.trim();
  const lower = text.toLowerCase();
  const jobs = frame.jobs;
  const waiting = frame.default_job_id
    ? jobs.find((j) => j.job_id === frame.default_job_id && j.state === "waiting_input")
    : undefined;

  if (waiting) {
    const slots = extractMeetingSlots(text, lang);
    delete slots.attendee_name;
    if (Object.keys(slots).length > 0 && !isScheduling(text) && !isSchedulingPt(text))
      return { type: "continue_job", job_id: waiting.job_id, slots, text };
  }
  const handoff = HANDOFF.exec(text) ?? HANDOFF_PT.exec(text);
  if (handoff)
    return {
      type: "handoff",
      request: handoff[2]!.trim().slice(0, 200),
      ...(handoff[1] ? { to_name: handoff[1] } : {}),
    };
  if (isScheduling(text)) return proposeMeeting(text, frame, lang, t);
  if (isSchedulingPt(text)) return proposeMeeting(text, frame, "pt", lang === "pt" ? t : words("pt"));

  const work = WORK_VERB.exec(text);
  if (work) {
    const verbAt = text.toLowerCase().indexOf(work[1]!.toLowerCase(), work.index);
    // "call" next to a meeting noun is a meeting ("call with Maria" handled above); "call the bank"
    // is work no tool of ours does: say so rather than propose a job nobody can finish.
    return { type: "decline_work", request: requestPhrase(text, verbAt) };
  }
  const workPt = WORK_VERB_PT.exec(text);
  if (workPt)
    return {
      type: "decline_work",
      request: requestPhrase(text, text.toLowerCase().indexOf(workPt[1]!.toLowerCase(), workPt.index)),
    };
  if (/^no,? thanks?\b|^no thank you\b|^n[ãa]o,? obrigad[oa]/iu.test(text))
    return { type: "chat_reply", text: t("office.planner.leaveIt") };

  if (GREETING.test(text) || GREETING_PT.test(text))
    return { type: "chat_reply", text: t("office.planner.greeting", { name: frame.sender.display_name }) };
  if (THANKS.test(text) || THANKS_PT.test(text)) return { type: "chat_reply", text: t("office.planner.welcome") };
  if (CAPABILITIES.test(lower)) {
    const name = frame.agent.display_name;
    return {
      type: "chat_reply",
      text: frame.agent.role
        ? t("office.planner.whoAmI.role", { name, role: frame.agent.role })
        : t("office.planner.whoAmI", { name }),
    };
  }
  if (VAGUE_HELP.test(text)) return { type: "request_input", question: t("office.planner.vagueHelp") };
  if ((MEETING_NOUN.test(text) && /\bwith\s+[A-ZÀ-Ý]/.test(text)) || mentionsMeetingPt(text)) {
    return {
      type: "request_input",
      question: t("office.planner.scheduleThat"),
      choices: [t("office.planner.scheduleThat.yes"), t("office.planner.scheduleThat.no")],
    };
  }
  if (/\?\s*$/.test(text)) {
    // The frame also offers recently closed jobs (as reference targets); only open ones count here.
    const open = jobs.filter((j) => isOpenState(j.state));
    if (open.length === 1) {
      const state = lang === "en" ? open[0]!.state.replace("_", " ") : stateWords(open[0]!.state, t);
      return { type: "chat_reply", text: t("office.planner.onIt.one", { title: open[0]!.title, state }) };
    }
    if (open.length) return { type: "chat_reply", text: t("office.planner.onIt.many", { count: open.length }) };
    return { type: "chat_reply", text: t("office.planner.goodQuestion") };
  }
  return { type: "chat_reply", text: t("office.planner.noted") };
}

export function createRulesPlanner(): Planner {
  return { name: "rules", plan: async (frame) => planRules(frame) };
}
