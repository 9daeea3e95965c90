import { LIMITS } from "../../../contracts/facts.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { memberConversation, memberJob } from "../conversations/conversations.js";

/**
 * Gateway commands for Office's LLM layer: ThreadContext (pin, Change target) and Assist. Each
 * checks membership first, so a conversation or job of another tenant (or one the person is not
 * in) answers NOT_FOUND before Office is asked anything.
 */

/** ThreadContext writes live in Office's table, not the ledger: the stored response is what makes them idempotent. */
export function setThreadContext(
  core: Core,
  p: Principal,
  conversationId: string,
  what: "pin" | "target",
  jobId: string | null,
  idem: IdemScope,
): StoredResponse {
  memberConversation(core, p, conversationId);
  const view = core.office.setThreadContext(p.tenantId, conversationId, what, jobId);
  const stored = { status: 200, body: view };
  core.idem.record(idem, stored, core.db);
  return stored;
}

/**
 * Apply of an Assist suggestion, the way a card click works: Office pre-checks it (no writes),
 * the gateway appends the person's readable bubble and, in that same commit, the idempotent
 * response and Office's claim of the suggestion (so a replay or a second click executes
 * nothing), answers 202, and Office carries the suggestion out afterwards.
 */
export async function applySuggestion(
  core: Core,
  p: Principal,
  jobId: string,
  suggestionId: string,
  body: { confirm?: boolean | undefined; trace_id?: string },
  idem: IdemScope,
): Promise<StoredResponse> {
  const job = memberJob(core, p, jobId);
  const req = {
    tenant_id: p.tenantId,
    trace_id: body.trace_id ?? core.ids("trc"),
    job_id: jobId,
    suggestion_id: suggestionId,
    actor_entity_id: p.entityId,
    ...(body.confirm !== undefined ? { confirm: body.confirm } : {}),
  };
  core.office.checkSuggestion(req);
  const me = core.me(p);
  const bubble = core.event(
    p.tenantId,
    "message.sent",
    job.conversation_id,
    { entity_id: p.entityId, actor_type: "human" },
    {
      message_id: core.ids("msg"),
      kind: "system",
      body_text: `${me.display_name} applied an Assist suggestion to “${job.title}”`.slice(0, LIMITS.messageChars),
    },
    { job_id: jobId, trace_id: req.trace_id },
  );
  return core.commit(p.tenantId, [bubble], {
    idem,
    extra: () => {
      core.office.claimSuggestion(req);
      core.office.accept({ kind: "suggestion", request: { ...req, causation_id: bubble.event_id } });
    },
    body: (r) => ({
      accepted: true,
      conversation_id: job.conversation_id,
      job_id: jobId,
      client_action: "assist.apply",
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}

/**
 * What the Job Drawer shows of the LLM layer: the stored packets (already redacted by Office
 * unless OFFICE_LLM_LOG_FULL=1) and, per model answer, what it proposed and what validation
 * did with it.
 */
export function llmAudit(core: Core, p: Principal, jobId: string) {
  const packets = core.office.llmPackets(p.tenantId, jobId);
  const proposals = packets
    .filter((x) => x.packet_type === "response")
    .map((x) => {
      const answer = (x.packet.answer ?? null) as Record<string, unknown> | null;
      const validation = (x.packet.validation ?? {}) as Record<string, unknown>;
      const ops = Array.isArray(answer?.operations)
        ? (answer!.operations as Array<Record<string, unknown>>)
        : Array.isArray(answer?.suggestions)
          ? (answer!.suggestions as Array<Record<string, unknown>>)
          : [];
      return {
        packet_id: x.id,
        turn: x.turn,
        created_at: x.created_at,
        model: x.model_id,
        outcome: x.outcome,
        proposed: ops.slice(0, 10).map((o) => String(o.type ?? "unknown").slice(0, 64)),
        dropped: Array.isArray(validation.dropped) ? (validation.dropped as unknown[]).slice(0, 20) : [],
      };
    });
  return { packets, proposals };
}

/** GET /v1/conversations/:id/tools: what the agents here can do. */
export function conversationTools(core: Core, p: Principal, conversationId: string) {
  memberConversation(core, p, conversationId);
  return core.office.conversationTools(p.tenantId, conversationId);
}

/** GET /v1/conversations/:id/context: the conversation's thread context (last, recent, pinned job). */
export function threadContext(core: Core, p: Principal, conversationId: string) {
  memberConversation(core, p, conversationId);
  return core.office.threadContext(p.tenantId, conversationId);
}

/** GET /v1/jobs/:job_id/assist: suggestions for the job. */
export function assist(core: Core, p: Principal, jobId: string, traceId: string) {
  memberJob(core, p, jobId);
  return core.office.assist(p.tenantId, jobId, traceId);
}

/** GET /v1/jobs/:job_id/why: told in the reader's language (their profile's, else the workspace default). */
export function why(core: Core, p: Principal, jobId: string) {
  memberJob(core, p, jobId);
  return core.office.explainJob(p.tenantId, jobId, core.tenant(p.tenantId).entities.get(p.entityId)?.locale);
}
