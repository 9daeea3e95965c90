import type { HostLedgerApi } from "../ledger/index.js";
import { isOpenState } from "../job/transitions.js";
import { foldJob, type JobView } from "./job-machine.js";
import { queryAll } from "./views/ledger-reads.js";
import type { EntityProfile, JobSummary, OfficeView } from "./views/office-view.js";
import type { PlanFrame } from "./planner/planner.js";

export type { EntityProfile } from "./views/office-view.js";

/**
 * Assembles what Office knows before it decides: who is in the conversation, which agent
 * answers, the agent's profile and the conversation's jobs. Frames are built from the in-memory
 * Office view (no ledger read per message); a job's full fold — cards, approvals, tool attempts —
 * is read from its own indexed events only when an action needs it.
 */

const RECENT_CLOSED = 5;
const RECENT_MESSAGES = 6;
const MAX_DOCUMENTS = 10;

export interface ContextBuilder {
  profile(tenantId: string, entityId: string): EntityProfile | undefined;
  /** Participants in join order. */
  participants(tenantId: string, conversationId: string): readonly string[];
  /** The agent that answers a message, by the rules: one agent → it; several → named, else first. */
  answeringAgent(tenantId: string, conversationId: string, text: string, senderId: string): EntityProfile | undefined;
  /** The job folded from its events (one indexed read), or null if it does not exist. */
  job(tenantId: string, jobId: string): JobView | null;
  /** The conversation's jobs as summaries, in creation order (no ledger read). */
  conversationJobs(tenantId: string, conversationId: string): JobSummary[];
  agentJobIds(tenantId: string, entityId: string): readonly string[];
  allJobIds(tenantId: string): readonly string[];
  jobSummary(tenantId: string, jobId: string): JobSummary | undefined;
  lastMessageBy(tenantId: string, conversationId: string, entityId: string): string | undefined;
  /** The agent that wrote a message (by message_id), if an agent did. */
  agentAuthorOf(tenantId: string, messageId: string): string | undefined;
  /**
   * Who can take work no tool can do: a person (approver or admin; not the sender, unless the
   * sender is the one named — an approver keeping the work as their own to-do) and the
   * conversation where the agent and that person are both members, a direct chat first.
   * Undefined when nobody fits.
   */
  handoffTarget(
    tenantId: string,
    senderId: string,
    agentId: string,
    name?: string,
  ): { person: EntityProfile; conversation_id: string } | undefined;
  frame(input: {
    tenant_id: string;
    conversation_id: string;
    trace_id: string;
    now: string;
    default_timezone: string;
    agent: EntityProfile;
    sender: EntityProfile;
    text: string;
  }): PlanFrame;
}

export function createContextBuilder(deps: { ledger: HostLedgerApi; view: OfficeView }): ContextBuilder {
  const { ledger, view } = deps;

  const profile = (tenantId: string, entityId: string): EntityProfile | undefined => {
    const registered = view.profile(tenantId, entityId);
    if (registered) return registered;
    // Entities known to the ledger's own fold without a registration event (e.g. a workspace owner).
    const f = ledger.facts.entity(tenantId, entityId);
    return f
      ? {
          entity_id: entityId,
          actor_type: f.actor_type,
          display_name: f.display_name,
          roles: f.roles,
          capabilities: [],
          allowed_tools: f.allowed_tools ?? [],
        }
      : undefined;
  };

  function handoffTarget(tenantId: string, senderId: string, agentId: string, name?: string) {
    const wanted = name?.trim().toLowerCase();
    const people = view
      .entities(tenantId)
      .filter((p) => p.actor_type === "human" && p.roles.some((r) => r === "job_approver" || r === "admin"))
      .filter((p) =>
        wanted
          ? p.display_name.toLowerCase() === wanted || p.display_name.toLowerCase().split(/\s+/)[0] === wanted
          : p.entity_id !== senderId,
      )
      // Named, the asker may be their own target (an approver keeping the work as a to-do); unnamed, never.
      .sort((a, b) => Number(a.entity_id === senderId) - Number(b.entity_id === senderId));
    for (const person of people) {
      const shared = view
        .conversationsOf(tenantId, person.entity_id)
        .filter((c) => view.participants(tenantId, c).includes(agentId));
      const direct = shared.find((c) => view.participants(tenantId, c).length === 2);
      const conversation_id = direct ?? shared[0];
      if (conversation_id) return { person, conversation_id };
    }
    return undefined;
  }

  const conversationJobs = (tenantId: string, conversationId: string): JobSummary[] => {
    const out: JobSummary[] = [];
    for (const id of view.conversationJobIds(tenantId, conversationId)) {
      const j = view.job(tenantId, id);
      if (j) out.push(j);
    }
    return out;
  };

  /**
   * Untrusted material the model may read as data: the last few chat messages (people's and
   * agents' words) and the latest tool outcomes of this conversation's jobs.
   */
  function documentsFor(
    tenantId: string,
    conversationId: string,
    jobs: readonly JobSummary[],
  ): NonNullable<PlanFrame["documents"]> {
    const docs: NonNullable<PlanFrame["documents"]> = [];
    // The newest text is the message being answered; it is the frame's `text`, not a document.
    for (const m of view.recentTexts(tenantId, conversationId).slice(-(RECENT_MESSAGES + 1), -1)) {
      const who = profile(tenantId, m.entity_id)?.display_name ?? m.entity_id;
      docs.push({
        doc_id: `msg_${m.event_id}`.slice(0, 128),
        kind: "chat_message",
        text: `${who}: ${m.text}`.slice(0, 1000),
      });
    }
    for (const j of jobs) {
      const last = j.last_tool;
      if (!last) continue;
      docs.push({
        doc_id: `tool_${last.tool_call_id}`.slice(0, 128),
        kind: "tool_output",
        text: `${j.title}: ${last.tool_name} ${last.status ?? "called"}${last.error_code ? ` (${last.error_code})` : ""}`.slice(
          0,
          1000,
        ),
      });
    }
    return docs.slice(-MAX_DOCUMENTS);
  }

  /** The `n` most recently updated of `jobs`, newest first, without sorting them all. */
  function latestUpdated(jobs: readonly JobSummary[], n: number): JobSummary[] {
    const top: JobSummary[] = [];
    for (const j of jobs) {
      if (top.length === n && j.updated_at <= top[n - 1]!.updated_at) continue;
      let i = top.length;
      while (i > 0 && top[i - 1]!.updated_at < j.updated_at) i--;
      top.splice(i, 0, j);
      if (top.length > n) top.pop();
    }
    return top;
  }

  return {
    profile,
    handoffTarget,
    participants: (t, c) => view.participants(t, c),
    job: (tenantId, jobId) =>
      foldJob(view.jobEvents(tenantId, jobId) ?? queryAll(ledger, { tenant_id: tenantId, job_id: jobId })),
    conversationJobs,
    agentJobIds: (t, id) => view.agentJobIds(t, id),
    allJobIds: (t) => view.tenantJobIds(t),
    jobSummary: (t, j) => view.job(t, j),
    lastMessageBy: (t, c, id) => view.lastMessageBy(t, c, id),
    agentAuthorOf: (t, m) => view.agentAuthorOf(t, m),
    answeringAgent(tenantId, conversationId, text, senderId) {
      const agents = view
        .participants(tenantId, conversationId)
        .filter((id) => id !== senderId)
        .map((id) => profile(tenantId, id))
        .filter((p): p is EntityProfile => p?.actor_type === "agent");
      if (agents.length <= 1) return agents[0];
      const lower = text.toLowerCase();
      const named = agents.find(
        (a) =>
          lower.includes(a.display_name.toLowerCase()) ||
          lower.includes(`@${a.display_name.split(/\s+/)[0]!.toLowerCase()}`),
      );
      return named ?? agents[0];
    },
    frame(input) {
      const jobs = conversationJobs(input.tenant_id, input.conversation_id).filter(
        (j) => j.owner_entity_id === input.agent.entity_id,
      );
      const open = jobs.filter((j) => isOpenState(j.state));
      // The default target: the one job waiting on input, else the one open job, else none.
      const waiting = open.filter((j) => j.state === "waiting_input");
      const target = waiting.length === 1 ? waiting[0] : open.length === 1 ? open[0] : undefined;
      // Recently closed jobs are offered too, so "follow up on the call" or a #-picked finished
      // job resolves to an id instead of a guess; they never become the default target.
      const closed = latestUpdated(
        jobs.filter((j) => !isOpenState(j.state)),
        RECENT_CLOSED,
      );
      return {
        tenant_id: input.tenant_id,
        conversation_id: input.conversation_id,
        trace_id: input.trace_id,
        now: input.now,
        default_timezone: input.default_timezone,
        agent: {
          entity_id: input.agent.entity_id,
          display_name: input.agent.display_name,
          ...(input.agent.role ? { role: input.agent.role } : {}),
          allowed_tools: input.agent.allowed_tools,
        },
        sender: { entity_id: input.sender.entity_id, display_name: input.sender.display_name },
        text: input.text,
        jobs: [...open, ...closed].map((j) => ({
          job_id: j.job_id,
          title: j.title,
          state: j.state,
          conversation_id: j.conversation_id,
        })),
        ...(target ? { default_job_id: target.job_id, focus_job_id: target.job_id } : {}),
        documents: documentsFor(input.tenant_id, input.conversation_id, jobs),
      };
    },
  };
}
