import type { HandOverRequest } from "../office-api.js";
import {
  ZIngestMessageRequest,
  type TIngestMessageRequest,
  type TJobActionRequest,
} from "../../../contracts/office.js";
import type { HostLedgerApi } from "../../ledger/index.js";
import type { Clock } from "../../shared/clock.js";
import { AppError, validationError } from "../../shared/errors.js";
import type { ContextBuilder } from "../context-builder.js";
import type { Draft, EmitContext } from "../emitter.js";
import type { JobSlots, JobView } from "../job-machine.js";
import type { JobEngine } from "../engine/job-engine.js";
import type { LedgerInput } from "../jobs/model.js";
import { mayUse } from "../mcp/agent-tools.js";
import { isToolCommand } from "../mcp/commands.js";
import type { McpToolInfo } from "../mcp/hub.js";
import { type Planner, planOrFallback } from "../planner/planner.js";
import { CALENDAR_TOOL } from "../job-drafts.js";
import { findMeeting } from "../planner/slots.js";
import { messageExtras } from "./message-extras.js";
import * as copy from "../narrator.js";
import { createPeopleCommands, parseHandOver, parseWhy } from "./people-commands.js";
import { whoAnswers, withoutLeadingMention } from "./group-gate.js";
import { type Locale, localeSlot, words } from "../speak.js";
import { pickLocale } from "../../shared/i18n.js";
import { createMeetingChangeChat } from "./meeting-change-chat.js";
import { createToolCommands } from "./tool-commands.js";
import { parseMeetingChange } from "../planner/meeting-change-words.js";
import { parseReminder } from "../planner/reminder-words.js";

/**
 * A person's message: find the agent that answers, build the frame, ask the Planner, check
 * its decision (only candidate job ids, nothing invented), and act: reply, propose, continue.
 */
export function createIngest(deps: {
  handleClick: (req: TJobActionRequest) => Promise<{ ids: string[]; notes?: string; job_id?: string }>;
  ledger: HostLedgerApi;
  clock: Clock;
  context: ContextBuilder;
  engine: JobEngine;
  planner: Planner;
  fallback: Planner;
  emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>;
  defaultTimezone: string;
  /** The language of people whose profile names none (DEFAULT_LOCALE). */
  defaultLocale?: Locale;
  onError: (e: unknown, where: string) => void;
  actions?: { handle(req: TJobActionRequest): Promise<{ ids: string[]; notes?: string; job_id?: string }> };
  /** The connected MCP servers' tools. */
  mcpTools?: () => readonly McpToolInfo[];
  /** Hands a job over (the same step as the Hand over button). */
  handOver: (r: HandOverRequest) => Promise<{ ids: string[] }>;
}) {
  const { context, engine } = deps;
  const people = createPeopleCommands({
    ledger: deps.ledger,
    context,
    emit: deps.emit,
    say: (agentId, text, jobId) => engine.textDraft(agentId, text.slice(0, 4000), jobId),
    defaultLocale: deps.defaultLocale,
    handOver: deps.handOver,
  });

  const changeMeeting = createMeetingChangeChat({
    context,
    emit: deps.emit,
    say: (agentId, text, jobId) => engine.textDraft(agentId, text.slice(0, 4000), jobId),
    handleClick: deps.handleClick,
  });

  const tools = createToolCommands({
    engine,
    emit: deps.emit,
    mcpTools: () => deps.mcpTools?.() ?? [],
    defaultLocale: deps.defaultLocale,
  });

  /** Where an answer to the person's message goes: its conversation, caused by the message. */
  function answerContext(req: TIngestMessageRequest): EmitContext {
    const cause =
      req.message_event_id ?? context.lastMessageBy(req.tenant_id, req.conversation_id, req.actor_entity_id);
    return {
      tenant_id: req.tenant_id,
      trace_id: req.trace_id,
      conversation_id: req.conversation_id,
      ...(cause ? { causation_id: cause } : {}),
    };
  }

  /** Planner slots → ledger-safe job slots (vault pointers, the resolved window), on top of `prev`. */
  function vaultSlots(tenantId: string, slots: Record<string, unknown>, text: string, prev: JobSlots = {}): JobSlots {
    // A meeting link comes from the person's own words, never from a planner's (a model could make one up).
    const { meeting_url: _ignored, ...planned } = slots;
    const pasted = findMeeting(text);
    return engine.intakeSlots(tenantId, pasted.meeting_url ? { ...planned, ...pasted } : planned, prev) as JobSlots;
  }

  return async function ingest(raw: TIngestMessageRequest): Promise<{ ids: string[]; notes: string; job_id?: string }> {
    const parsed = ZIngestMessageRequest.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error.issues);
    let req = parsed.data;
    const sender = context.profile(req.tenant_id, req.actor_entity_id);
    if (!sender) throw new AppError("NOT_FOUND", "Unknown sender.", { actor_entity_id: req.actor_entity_id });
    if (!deps.ledger.facts.isMember(req.tenant_id, req.conversation_id, req.actor_entity_id)) {
      throw new AppError("NOT_A_MEMBER", "The sender is not in this conversation.", {
        conversation_id: req.conversation_id,
      });
    }
    // Agents do not answer agents: it would let two agents talk to each other forever.
    if (sender.actor_type === "agent") return { ids: [], notes: "Sender is an agent; no reply" };
    const verdict = whoAnswers(context, req);
    const handOver = parseHandOver(req.body_text);
    // A hand-over names a job, so in a group it is for that job's agent without a mention.
    const agent =
      verdict.agent ??
      (handOver && verdict.why === "not_addressed"
        ? context.answeringAgent(req.tenant_id, req.conversation_id, req.body_text, req.actor_entity_id)
        : undefined);
    if (!agent)
      return {
        ids: [],
        notes: verdict.why === "no_agent" ? "No agent in this conversation" : "Between people; no agent was addressed",
      };
    // An admin paused (or removed) it: it answers nothing, proposes nothing, runs nothing.
    if (agent.paused || agent.status)
      return { ids: [], notes: `${agent.display_name} is ${agent.status ?? "paused"}; no reply` };
    // "@Office Scheduler please order paper" means what "please order paper" means in a direct chat.
    req = { ...req, body_text: withoutLeadingMention(req.body_text, agent.display_name) };
    const change = handOver ? null : parseMeetingChange(req.body_text);
    if (change) {
      const ec0 = answerContext(req);
      return changeMeeting(req, agent, ec0, change, words(pickLocale(sender.locale, deps.defaultLocale)));
    }
    const why = handOver ? undefined : parseWhy(req.body_text);
    if (handOver || why) {
      const ec0 = answerContext(req);
      return handOver ? people.handOver(req, sender, agent, ec0, handOver) : people.why(req, sender, agent, ec0, why!);
    }
    if (isToolCommand(req.body_text)) {
      return tools.command(req, sender, agent, answerContext(req));
    }

    const planned = tools.forPlanner(agent);
    // "…and remind me 15 minutes before": kept apart, so the planner does not read "15 minutes" as the meeting's length.
    const reminder = parseReminder(req.body_text);
    const built = context.frame({
      tenant_id: req.tenant_id,
      conversation_id: req.conversation_id,
      trace_id: req.trace_id,
      now: deps.clock.iso(),
      // The person's own zone (their profile), else the workspace default.
      default_timezone: sender.time_zone ?? deps.defaultTimezone,
      agent,
      sender,
      text: reminder?.rest ?? req.body_text,
    });
    // Answered in their own language: their profile's, else the workspace default.
    const lang = pickLocale(sender.locale, deps.defaultLocale);
    const t = words(lang);
    const frame = {
      ...built,
      ...(lang === "en" ? {} : { locale: lang }),
      ...(planned.length ? { tools: planned } : {}),
    };
    let decision = await planOrFallback(deps.planner, deps.fallback, frame, deps.onError);
    // A job is proposed only for work a tool of this agent can do; anything else is declined
    // with an offer to hand it to a person, whichever planner suggested it.
    if (decision.type === "propose_job" && !(decision.kind === "schedule_meeting" && mayUse(agent, CALENDAR_TOOL))) {
      decision = { type: "decline_work", request: decision.title };
    }
    if (
      (decision.type === "continue_job" || ("job_id" in decision && decision.job_id)) &&
      !frame.jobs.some((j) => j.job_id === (decision as { job_id?: string }).job_id)
    ) {
      decision = { type: "request_input", question: t("office.ingest.whichJob") };
    }
    // Caused by the person's message: named by the gateway, else their latest message here.
    const cause =
      req.message_event_id ?? context.lastMessageBy(req.tenant_id, req.conversation_id, req.actor_entity_id);
    const ec: EmitContext = {
      tenant_id: req.tenant_id,
      trace_id: req.trace_id,
      conversation_id: req.conversation_id,
      ...(cause ? { causation_id: cause } : {}),
    };
    const A = agent.entity_id;

    // Structured extras (ActionSummary, surfaces, render, citations, choices) ride on the agent's
    // message; body_text stays a readable fallback for any client that ignores them.
    const scrub = (t: string) => engine.sanitizeText(req.tenant_id, t).text;
    const extras = messageExtras(decision.llm, scrub);
    const say = (text: string, jobId?: string, withExtras = true): Draft => {
      const d = engine.textDraft(A, scrub(text), jobId);
      return withExtras ? { ...d, payload: { ...d.payload, ...extras } } : d;
    };
    // The ActionSummary ("Applied to: …") is posted after the action it describes.
    const summary = decision.llm?.action_summary;
    const withSummary = async (r: { ids: string[]; notes: string; job_id?: string }) =>
      summary
        ? {
            ...r,
            ids: [
              ...r.ids,
              ...(await deps.emit({ ...ec, ...(r.ids.length ? { causation_id: r.ids.at(-1)! } : {}) }, [
                say(summary.text.slice(0, 500), summary.job_id),
              ])),
            ],
          }
        : r;

    switch (decision.type) {
      case "job_action": {
        // A click-equivalent goes through the same gate as a click: it must match a button
        // offered on the job's latest card, and it is written as the person who asked.
        const job = context.job(req.tenant_id, decision.job_id);
        const cards = job
          ? [job.latest["job.finished"], job.latest["job.tracking"], job.latest["job.formalize"]].filter(
              (c) => c !== undefined,
            )
          : [];
        const latest = cards.sort((a, b) => b!.created_at.localeCompare(a!.created_at))[0];
        const button = latest?.buttons.find((b) => b.action.type === decision.action);
        if (!job || !latest || !button)
          return {
            ids: await deps.emit(ec, [engine.textDraft(A, t("office.ingest.notPossible"), decision.job_id)]),
            notes: "Action not offered",
          };
        const r = await deps.handleClick({
          tenant_id: req.tenant_id,
          trace_id: req.trace_id,
          conversation_id: req.conversation_id,
          job_id: job.job_id,
          actor_entity_id: req.actor_entity_id,
          card_id: latest.card_id,
          button_id: button.button_id,
          action: button.action,
          ...(decision.args ? { input: decision.args } : {}),
          ...(req.message_event_id ? { causation_id: req.message_event_id } : {}),
        });
        return withSummary({ ids: r.ids, notes: r.notes ?? "Applied an action", job_id: r.job_id ?? job.job_id });
      }
      case "call_tool": {
        const { tool, problems } = tools.checkPlanned(agent, decision.tool, decision.args);
        if (!tool) {
          return {
            ids: await deps.emit(ec, [
              say(
                t("office.ingest.cannotRun", {
                  tool: decision.tool,
                  problems: problems.join("; ") || t("office.ingest.notAllowed"),
                }),
              ),
            ]),
            notes: "Tool not run",
          };
        }
        return withSummary(await tools.open(req, sender, agent, tool, decision.args, ec));
      }
      case "chat_reply":
        return { ids: await deps.emit(ec, [say(decision.text)]), notes: "Chat reply" };
      case "request_input":
        return { ids: await deps.emit(ec, [say(decision.question, decision.job_id)]), notes: "Asked a question" };
      case "escalate":
        return {
          ids: await deps.emit(ec, [say(t("office.ingest.escalate", { reason: decision.reason }), decision.job_id)]),
          notes: "Escalated",
        };
      case "decline_work": {
        const request = scrub(decision.request);
        // Another approver or admin, else (the asker approves work themselves) a to-do job for the asker.
        const target =
          context.handoffTarget(req.tenant_id, sender.entity_id, A) ??
          context.handoffTarget(req.tenant_id, sender.entity_id, A, sender.display_name);
        const toSelf = target?.person.entity_id === sender.entity_id;
        const reply = say(copy.declineWork(agent, request, target?.person.display_name, t, toSelf), undefined, false);
        const choices = target
          ? [
              // The choice sends its words as the person's message: in their language, read back by the planner.
              {
                label: toSelf
                  ? t("office.ingest.todoForMe")
                  : t("office.ingest.handTo", { person: target.person.display_name }),
                token: t("office.more.handToToken", { person: target.person.display_name, request }),
              },
              { label: t("office.ingest.noThanks"), token: t("office.ingest.noThanks") },
            ]
          : [];
        return {
          ids: await deps.emit(ec, [choices.length ? { ...reply, payload: { ...reply.payload, choices } } : reply]),
          notes: "Declined work no tool can do",
        };
      }
      case "handoff": {
        const request = scrub(decision.request);
        const target = context.handoffTarget(req.tenant_id, sender.entity_id, A, decision.to_name);
        if (!target)
          return {
            ids: await deps.emit(ec, [say(copy.noHandoffTarget(decision.to_name, t))]),
            notes: "Nobody to hand it to",
          };
        // The job is opened in the person's chat with the agent first; the reply here is built
        // from the job it created, so it never says "handed over" for something not written.
        const p = await engine.open(
          agent,
          {
            type: "propose",
            at: { tenant_id: req.tenant_id, conversation_id: target.conversation_id },
            spec: {
              title: copy.handoffTitle(sender.display_name, request, t),
              kind: "handoff",
              goal: copy.handoffGoal(sender.display_name, request, t),
              slots: { requested_by: sender.entity_id, request },
            },
          },
          {
            tenant_id: req.tenant_id,
            trace_id: req.trace_id,
            conversation_id: target.conversation_id,
            ...(cause ? { causation_id: cause } : {}),
          },
        );
        const made = p.ids;
        const created = context.job(req.tenant_id, p.job_id);
        if (!created) return { ids: made, notes: "Handoff not recorded" };
        const ids = await deps.emit({ ...ec, causation_id: made[0]! }, [
          say(copy.handedOff(target.person.display_name, created.title, t), undefined, false),
        ]);
        return { ids: [...made, ...ids], notes: "Handed to a person", job_id: p.job_id };
      }
      case "propose_job": {
        // Who asked is recorded with the job: the invite lists them too once their address is known.
        // A meeting is in the asker's zone unless they named one.
        const zone =
          decision.kind === "schedule_meeting" && !decision.slots.timezone && sender.time_zone
            ? { timezone: sender.time_zone }
            : {};
        const slots = {
          // The job keeps the asker's language: its cards stay in it whoever clicks them.
          ...vaultSlots(
            req.tenant_id,
            { ...(decision.slots as Record<string, unknown>), ...zone, ...localeSlot(lang) },
            req.body_text,
          ),
          ...(decision.kind === "schedule_meeting" ? { requested_by: sender.entity_id } : {}),
          ...(decision.kind === "schedule_meeting" && reminder ? { remind_minutes: reminder.minutes } : {}),
        };
        const remindWords =
          decision.kind === "schedule_meeting" && reminder
            ? [copy.reminderConstraint(sender.display_name, reminder.minutes, t)]
            : [];
        const spec = {
          title: engine.sanitizeText(req.tenant_id, decision.title).text.slice(0, 120),
          kind: decision.kind,
          goal: engine.sanitizeText(req.tenant_id, decision.goal).text.slice(0, 500),
          slots,
          ...(decision.constraints || remindWords.length
            ? {
                constraints: [
                  ...(decision.constraints ?? []).map((c) => engine.sanitizeText(req.tenant_id, c).text.slice(0, 300)),
                  ...remindWords,
                ],
              }
            : {}),
        };
        const p = await engine.open(
          agent,
          { type: "propose", at: { tenant_id: req.tenant_id, conversation_id: req.conversation_id }, spec },
          ec,
        );
        return { ids: p.ids, notes: "Proposed a job card", job_id: p.job_id };
      }
      case "continue_job": {
        const jobId = decision.job_id;
        return engine.withLock(engine.jobKey(req.tenant_id, jobId), async () => {
          const job = context.job(req.tenant_id, jobId) as JobView;
          // The answer is made ledger-safe only when the job is waiting for it.
          const slots =
            job.state === "waiting_input"
              ? vaultSlots(req.tenant_id, decision.slots as Record<string, unknown>, req.body_text, job.slots)
              : {};
          const inputs = Object.fromEntries(Object.entries(slots).filter(([, v]) => v !== undefined)) as Record<
            string,
            LedgerInput
          >;
          const r = await engine.run(
            job,
            agent,
            { type: "answer_in_chat", by: { entity_id: sender.entity_id, actor_type: "human" }, inputs },
            ec,
          );
          const out = { ids: r.ids, notes: r.notes ?? "Continued the job", ...(r.job_id ? { job_id: r.job_id } : {}) };
          return r.job_id ? withSummary(out) : out;
        });
      }
    }
    return { ids: [], notes: "Nothing to do" };
  };
}
