import type { Clock } from "../../shared/clock.js";
import { defaultIds, type IdGenerator } from "../../shared/ids.js";
import type { PlanFrame, PlanJobRef, Planner } from "../planner/planner.js";
import { buildContextInput, CONTEXT_LIMITS, pendingActions } from "./context-input.js";
import { calmReply, decideFromAnswer, type LlmDecision, type TurnFacts } from "./decide.js";
import { extractJsonObject } from "./json-extract.js";
import {
  makeDocuments,
  rawSummary,
  redactPacket,
  PROTOCOL,
  type RequestPacket,
  type ResponsePacket,
} from "./packet.js";
import { SYSTEM_PROMPT } from "./prompt.js";
import { createSuggestCall, type SuggestInput } from "./suggest-call.js";
import type { SuggestionResult } from "./suggestions.js";
import type { ChatOutcome, ChatProvider } from "./provider.js";
import { buildWireSchema } from "./response-schema.js";
import type { LlmStore, StoredPacket } from "./store.js";
import { defaultIsActionAllowed, type IsActionAllowed } from "./target-labels.js";
import { changeTarget, noteJobs, pinJob, resolveTarget, type ThreadContext } from "./thread-context.js";
import { checkMessageTokens } from "./token-check.js";
import { decisionFromOp } from "./op-decision.js";
import type { OpToken, RefToken } from "./tokens.js";

export interface LlmPlannerDeps {
  provider: ChatProvider;
  store: LlmStore;
  clock: Pick<Clock, "iso">;
  ids?: IdGenerator;
  /** Keep full packets (OFFICE_LLM_LOG_FULL=1); the default stores the redacted form. */
  logFull?: boolean;
  isActionAllowed?: IsActionAllowed;
}

export interface LlmPlanner extends Planner {
  readonly name: "llm";
  plan(frame: PlanFrame): Promise<LlmDecision>;
  /** ThreadContext controls behind the UI's pin/unpin and the ActionSummary's Change. */
  threads: {
    get(tenantId: string, conversationId: string): ThreadContext;
    pin(tenantId: string, conversationId: string, jobId: string | null): ThreadContext;
    changeTarget(tenantId: string, conversationId: string, jobId: string | null): ThreadContext;
  };
  /** Assist: one model call for a job's suggestions, validated by the 001 rules. */
  suggest(input: SuggestInput): Promise<SuggestionResult>;
  /** Stored packets, newest first, for the job drawer's audit view. */
  packets(tenantId: string, q: { conversationId?: string; jobId?: string; limit?: number }): StoredPacket[];
}

/**
 * The LLM planner. Per message: parse and check the person's tokens (refusing with a clear
 * error, before any model call), update ThreadContext, resolve the default target, make exactly
 * one model call with the candidates, then validate the answer into one Decision. A transport
 * failure gets the provider's single retry and then a calm reply; the planner never throws for
 * anything the model or the network did.
 */
export function createLlmPlanner(deps: LlmPlannerDeps): LlmPlanner {
  const ids = deps.ids ?? defaultIds;
  const isActionAllowed = deps.isActionAllowed ?? defaultIsActionAllowed;
  const { store, clock, provider } = deps;

  function saveCtx(frame: PlanFrame, ctx: ThreadContext) {
    store.saveThreadContext(frame.tenant_id, frame.conversation_id, ctx, clock.iso());
  }

  async function plan(frame: PlanFrame): Promise<LlmDecision> {
    const jobs = new Map(frame.jobs.map((j) => [j.job_id, j] as const));
    const check = checkMessageTokens(frame.text, jobs, isActionAllowed);
    if (!check.ok) {
      return {
        type: "chat_reply",
        text: `I couldn’t use the job reference in your message: ${check.error.message}`,
        llm: { outcome: "token_error", token_error: check.error, dropped: [] },
      };
    }
    const refs = check.tokens.filter((t): t is RefToken => t.kind === "ref");
    const op = check.tokens.find((t): t is OpToken => t.kind === "op");
    let ctx = store.getThreadContext(frame.tenant_id, frame.conversation_id);
    if (check.tokens.length) {
      ctx = noteJobs(
        ctx,
        check.tokens.map((t) => (t.kind === "ref" ? t.id : t.job)),
      );
      saveCtx(frame, ctx);
    }
    // A quick action (a surface button or a typed [op …]) is a click: it is already exact, so
    // it is executed as such without asking a model to restate it.
    if (op) return decisionFromOp(op, check.llmText, jobs, frame.jobs);

    const turn = store.nextTurn(frame.tenant_id, frame.conversation_id, clock.iso());
    const resolution = resolveTarget({
      tokenJobIds: refs.map((r) => r.id),
      roomFocusJobId: frame.focus_job_id ?? frame.default_job_id,
      ctx,
      candidateIds: new Set(frame.jobs.map((j) => j.job_id)),
    });
    const ordered = orderJobs(frame.jobs, resolution.kind === "default" ? resolution.jobId : undefined);
    const visible = ordered.slice(0, CONTEXT_LIMITS.jobs);
    const candidates = resolution.kind === "tokens" ? resolution.jobIds.map((id) => jobs.get(id)!) : visible;
    const documents = makeDocuments(frame.documents ?? []);
    const tools = frame.tools ?? [];
    const facts: TurnFacts = {
      jobs,
      candidates,
      resolution,
      docIds: documents.map((d) => d.doc_id),
      isActionAllowed,
      tools: new Map(tools.map((t) => [t.name, t])),
    };

    const request: RequestPacket = {
      protocol: PROTOCOL,
      id: ids("llmreq"),
      type: "request",
      created_at: clock.iso(),
      conversation: { id: frame.conversation_id, turn },
      sender: { role: "agent" },
      trace: { trace_id: frame.trace_id },
      input: {
        user_message: { id: ids("msg"), text: check.llmText, sender_display_name: frame.sender.display_name },
        task: { name: "office.plan_turn", args: { default_timezone: frame.default_timezone, now: frame.now } },
        references: refs.map((r) => ({
          placeholder: r.placeholder,
          type: "job",
          job_id: r.id,
          title: jobs.get(r.id)!.title,
        })),
        candidate_job_ids: candidates.map((c) => c.job_id),
        default_job_id: resolution.kind === "default" ? resolution.jobId : null,
        default_reason: resolution.kind === "default" ? resolution.source : null,
      },
      agent: {
        entity_id: frame.agent.entity_id,
        display_name: frame.agent.display_name,
        role: frame.agent.role ?? null,
        allowed_tools: frame.agent.allowed_tools,
        tools,
      },
      context: {
        context_input: buildContextInput({
          anchor: {
            job_id: resolution.kind === "default" ? resolution.jobId : null,
            conversation_id: frame.conversation_id,
          },
          jobs: ordered,
          actions: pendingActions(ordered),
        }),
        documents,
      },
      output: { format: "json" },
    };

    const outcome = await provider.complete({
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: JSON.stringify(request) },
      ],
      schema: buildWireSchema(
        request.input.candidate_job_ids,
        facts.docIds,
        tools.map((t) => t.name),
      ),
      schemaName: "office_turn",
    });

    const { decision, answer, content } = interpret(outcome, facts);
    if (decision.llm.action_summary) {
      ctx = noteJobs(ctx, [decision.llm.action_summary.job_id]);
      saveCtx(frame, ctx);
    }
    decision.llm.turn = turn;
    decision.llm.request_packet_id = request.id;
    storePackets(frame, request, outcome, answer, content, decision);
    return decision;
  }

  function interpret(
    outcome: ChatOutcome,
    facts: TurnFacts,
  ): { decision: LlmDecision; answer: Record<string, unknown> | null; content: string } {
    switch (outcome.kind) {
      case "unavailable":
        return {
          decision: calmReply("unavailable", [
            {
              what: "answer",
              reason: `model unavailable: ${outcome.reason}${outcome.status ? ` ${outcome.status}` : ""}`,
            },
          ]),
          answer: null,
          content: "",
        };
      case "refused":
        return {
          decision: calmReply("invalid", [{ what: "answer", reason: "model refused" }]),
          answer: null,
          content: outcome.refusal,
        };
      case "truncated":
        return {
          decision: calmReply("invalid", [{ what: "answer", reason: "answer cut off at the token limit" }]),
          answer: null,
          content: outcome.content,
        };
      case "answer": {
        const extracted = extractJsonObject(outcome.content);
        if (!extracted.ok)
          return {
            decision: calmReply("invalid", [{ what: "answer", reason: extracted.reason }]),
            answer: null,
            content: outcome.content,
          };
        return {
          decision: decideFromAnswer(extracted.value, facts),
          answer: extracted.value,
          content: outcome.content,
        };
      }
    }
  }

  function storePackets(
    frame: PlanFrame,
    request: RequestPacket,
    outcome: ChatOutcome,
    answer: Record<string, unknown> | null,
    content: string,
    decision: LlmDecision,
  ) {
    const full = deps.logFull === true;
    const jobId =
      decision.llm.action_summary?.job_id ??
      ("job_id" in decision && typeof decision.job_id === "string" ? decision.job_id : null);
    const response: ResponsePacket = {
      protocol: PROTOCOL,
      id: ids("llmres"),
      type: "response",
      created_at: clock.iso(),
      conversation: request.conversation,
      sender: { role: "assistant" },
      in_reply_to: { request_id: request.id },
      model: outcome.kind === "answer" ? (outcome.model ?? provider.model) : provider.model,
      transport: {
        outcome: outcome.kind,
        attempts: outcome.attempts,
        latency_ms: outcome.latencyMs,
        finish_reason: outcome.kind === "answer" ? outcome.finishReason : null,
      },
      raw: rawSummary(content, full),
      answer,
      validation: {
        outcome: decision.llm.outcome,
        decision_type: decision.type,
        job_id: jobId,
        dropped: decision.llm.dropped,
      },
    };
    const base = {
      tenant_id: frame.tenant_id,
      conversation_id: frame.conversation_id,
      turn: request.conversation.turn,
      model_id: provider.model,
      redaction: full ? "full" : "default",
    } as const;
    store.savePacket({
      ...base,
      id: request.id,
      created_at: request.created_at,
      sender_role: "agent",
      packet_type: "request",
      in_reply_to_request_id: null,
      job_id: request.input.default_job_id,
      outcome: null,
      packet: redactPacket(request, full),
    });
    store.savePacket({
      ...base,
      id: response.id,
      created_at: response.created_at,
      sender_role: "assistant",
      packet_type: "response",
      in_reply_to_request_id: request.id,
      job_id: jobId,
      outcome: decision.llm.outcome,
      packet: redactPacket(response, full),
    });
  }

  const update =
    (fn: (ctx: ThreadContext, jobId: string | null) => ThreadContext) =>
    (tenantId: string, conversationId: string, jobId: string | null) => {
      const next = fn(store.getThreadContext(tenantId, conversationId), jobId);
      store.saveThreadContext(tenantId, conversationId, next, clock.iso());
      return next;
    };

  return {
    name: "llm",
    plan,
    threads: {
      get: (t, c) => store.getThreadContext(t, c),
      pin: update(pinJob),
      changeTarget: update(changeTarget),
    },
    packets: (t, q) => store.listPackets(t, q),
    suggest: createSuggestCall({ provider, store, clock, ids, logFull: deps.logFull === true }),
  };
}

/** The default target first (so it is never the one cut by truncation), then the rest as given. */
function orderJobs(jobs: readonly PlanJobRef[], first: string | undefined): PlanJobRef[] {
  if (!first) return [...jobs];
  const head = jobs.find((j) => j.job_id === first);
  return head ? [head, ...jobs.filter((j) => j.job_id !== first)] : [...jobs];
}
