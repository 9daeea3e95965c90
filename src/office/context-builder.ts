import type { TEntityRegisteredPayload, TStoredEvent } from "../../contracts/events.js";
import type { LedgerApi } from "../ledger/index.js";
import { foldJob, type JobView } from "./job-machine.js";
import { queryAll } from "./ledger-reads.js";
import type { PlanFrame } from "./planner/planner.js";

/**
 * Assembles what Office knows before it decides: who is in the conversation, which agent
 * answers, the agent's profile and the conversation's jobs. Everything is read from the ledger.
 */

const RECENT_CLOSED = 5;
const RECENT_MESSAGES = 6;
const MAX_DOCUMENTS = 10;

export interface EntityProfile {
  entity_id: string;
  actor_type: "human" | "agent";
  display_name: string;
  roles: string[];
  role?: string;
  capabilities: string[];
  allowed_tools: string[];
  memory_scope?: string;
}

export interface ContextBuilder {
  profile(tenantId: string, entityId: string): EntityProfile | undefined;
  /** Participants in join order. */
  participants(tenantId: string, conversationId: string): string[];
  /** The agent that answers a message, by the rules: one agent → it; several → named, else first. */
  answeringAgent(tenantId: string, conversationId: string, text: string, senderId: string): EntityProfile | undefined;
  jobEvents(tenantId: string, jobId: string): TStoredEvent[];
  job(tenantId: string, jobId: string): JobView | null;
  conversationJobs(tenantId: string, conversationId: string): JobView[];
  agentJobIds(tenantId: string, entityId: string): string[];
  allJobIds(tenantId: string): string[];
  lastMessageBy(tenantId: string, conversationId: string, entityId: string): string | undefined;
  frame(input: { tenant_id: string; conversation_id: string; trace_id: string; now: string; default_timezone: string; agent: EntityProfile; sender: EntityProfile; text: string }): PlanFrame & { jobViews: JobView[] };
}

export function createContextBuilder(deps: { ledger: LedgerApi }): ContextBuilder {
  const { ledger } = deps;

  const profile = (tenantId: string, entityId: string): EntityProfile | undefined => {
    const regs = queryAll(ledger, { tenant_id: tenantId, event_type: "entity.registered" }).filter(
      (e) => (e.payload as TEntityRegisteredPayload).entity_id === entityId,
    );
    const last = regs.at(-1)?.payload as TEntityRegisteredPayload | undefined;
    if (!last) {
      const f = ledger.facts.entity(tenantId, entityId);
      return f ? { entity_id: entityId, actor_type: f.actor_type, display_name: f.display_name, roles: f.roles, capabilities: [], allowed_tools: f.allowed_tools ?? [] } : undefined;
    }
    return {
      entity_id: entityId,
      actor_type: last.actor_type,
      display_name: last.display_name,
      roles: last.roles ?? [],
      ...(last.role ? { role: last.role } : {}),
      capabilities: last.capabilities ?? [],
      allowed_tools: last.allowed_tools ?? [],
      ...(last.memory_scope ? { memory_scope: last.memory_scope } : {}),
    };
  };

  const participants = (tenantId: string, conversationId: string): string[] => {
    const created = queryAll(ledger, { tenant_id: tenantId, conversation_id: conversationId, event_type: "conversation.created" });
    const out: string[] = [];
    for (const e of created) {
      if (e.event_type !== "conversation.created") continue;
      for (const p of e.payload.participants) if (!out.includes(p.entity_id)) out.push(p.entity_id);
    }
    return out;
  };

  const jobEvents = (tenantId: string, jobId: string) => queryAll(ledger, { tenant_id: tenantId, job_id: jobId });
  const job = (tenantId: string, jobId: string) => foldJob(jobEvents(tenantId, jobId));

  const conversationJobs = (tenantId: string, conversationId: string): JobView[] =>
    queryAll(ledger, { tenant_id: tenantId, conversation_id: conversationId, event_type: "job.created" })
      .map((e) => job(tenantId, e.job_id ?? ""))
      .filter((j): j is JobView => j !== null);

  /**
   * Untrusted material the model may read as data: the last few chat messages (people's and
   * agents' words) and the latest tool outcomes of this conversation's jobs.
   */
  function documentsFor(tenantId: string, conversationId: string, jobViews: JobView[]): NonNullable<PlanFrame["documents"]> {
    const docs: NonNullable<PlanFrame["documents"]> = [];
    const messages = queryAll(ledger, { tenant_id: tenantId, conversation_id: conversationId, event_type: "message.sent" })
      .filter((e) => e.event_type === "message.sent" && e.payload.kind === "text" && e.payload.body_text)
      .slice(-(RECENT_MESSAGES + 1), -1);
    for (const e of messages) {
      if (e.event_type !== "message.sent") continue;
      const who = profile(tenantId, e.actor.entity_id)?.display_name ?? e.actor.entity_id;
      docs.push({ doc_id: `msg_${e.event_id}`.slice(0, 128), kind: "chat_message", text: `${who}: ${e.payload.body_text ?? ""}`.slice(0, 1000) });
    }
    for (const j of jobViews) {
      const last = j.tools.at(-1);
      if (!last) continue;
      docs.push({ doc_id: `tool_${last.tool_call_id}`.slice(0, 128), kind: "tool_output", text: `${j.title}: ${last.tool_name} ${last.status ?? "called"}${last.error_code ? ` (${last.error_code})` : ""}`.slice(0, 1000) });
    }
    return docs.slice(-MAX_DOCUMENTS);
  }

  return {
    profile,
    participants,
    jobEvents,
    job,
    conversationJobs,
    agentJobIds(tenantId, entityId) {
      return queryAll(ledger, { tenant_id: tenantId, event_type: "job.created" })
        .filter((e) => e.event_type === "job.created" && e.payload.owner_entity_id === entityId)
        .map((e) => e.job_id ?? "");
    },
    lastMessageBy(tenantId, conversationId, entityId) {
      return queryAll(ledger, { tenant_id: tenantId, conversation_id: conversationId, event_type: "message.sent" })
        .filter((e) => e.actor.entity_id === entityId)
        .at(-1)?.event_id;
    },
    allJobIds(tenantId) {
      return queryAll(ledger, { tenant_id: tenantId, event_type: "job.created" }).map((e) => e.job_id ?? "");
    },
    answeringAgent(tenantId, conversationId, text, senderId) {
      const agents = participants(tenantId, conversationId)
        .filter((id) => id !== senderId)
        .map((id) => profile(tenantId, id))
        .filter((p): p is EntityProfile => p?.actor_type === "agent");
      if (agents.length <= 1) return agents[0];
      const lower = text.toLowerCase();
      const named = agents.find((a) => lower.includes(a.display_name.toLowerCase()) || lower.includes(`@${a.display_name.split(/\s+/)[0]!.toLowerCase()}`));
      return named ?? agents[0];
    },
    frame(input) {
      const jobViews = conversationJobs(input.tenant_id, input.conversation_id).filter((j) => j.owner_entity_id === input.agent.entity_id);
      const open = jobViews.filter((j) => ["proposed", "approved", "in_progress", "waiting_input"].includes(j.state));
      // The default target: the one job waiting on input, else the one open job, else none.
      const waiting = open.filter((j) => j.state === "waiting_input");
      const target = waiting.length === 1 ? waiting[0] : open.length === 1 ? open[0] : undefined;
      // Recently closed jobs are offered too, so "follow up on the call" or a #-picked finished
      // job resolves to an id instead of a guess; they never become the default target.
      const closed = jobViews
        .filter((j) => !open.includes(j))
        .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
        .slice(0, RECENT_CLOSED);
      return {
        tenant_id: input.tenant_id,
        conversation_id: input.conversation_id,
        trace_id: input.trace_id,
        now: input.now,
        default_timezone: input.default_timezone,
        agent: { entity_id: input.agent.entity_id, display_name: input.agent.display_name, ...(input.agent.role ? { role: input.agent.role } : {}), allowed_tools: input.agent.allowed_tools },
        sender: { entity_id: input.sender.entity_id, display_name: input.sender.display_name },
        text: input.text,
        jobs: [...open, ...closed].map((j) => ({ job_id: j.job_id, title: j.title, state: j.state, conversation_id: j.conversation_id })),
        ...(target ? { default_job_id: target.job_id, focus_job_id: target.job_id } : {}),
        documents: documentsFor(input.tenant_id, input.conversation_id, jobViews),
        jobViews,
      };
    },
  };
}
