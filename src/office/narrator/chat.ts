import { ACTIVE_JOB_STATES, TERMINAL_JOB_STATES } from "../../../contracts/primitives.js";
import type { JobView } from "../job-machine.js";
import { type Translate, words } from "../speak.js";

/** The agent's chat lines about jobs: what a job is doing, what it cannot do, who could. */

const EN = words();

/** The states a job is ever shown in (a draft never is). */
const STATE_WORDS = new Set<string>([...ACTIVE_JOB_STATES, ...TERMINAL_JOB_STATES]);

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

export function handedOff(person: string, title: string, t: Translate = EN): string {
  return t("office.handoff.done", { person, title });
}

/** Why a Move / Cancel meeting / Keep original click cannot be done now (the refusal's message). */
const REFUSALS = {
  alreadyCancelled: "office.change.alreadyCancelled",
  noCounter: "office.change.noCounter",
  needTime: "office.change.needTime",
  notBooked: "office.change.notBooked",
} as const;

export const changeRefusal = (why: keyof typeof REFUSALS, t: Translate = EN): string => t(REFUSALS[why]);

/** The agent's line after a click the decider recorded, in the job's language. */
const CLICK_LINES = {
  rejected: "office.decide.rejected",
  willUse: "office.decide.willUse",
  disputeDone: "office.decide.disputeDone",
  disputePaused: "office.decide.disputePaused",
  closed: "office.decide.closed",
  noted: "office.planner.noted",
  useForm: "office.decide.useForm",
} as const;

export const clickLine = (what: keyof typeof CLICK_LINES, title: string, t: Translate = EN): string =>
  t(CLICK_LINES[what], { title });
