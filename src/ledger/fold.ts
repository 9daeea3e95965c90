import { WORKSPACE_CONVERSATION_ID, type TUblEvent } from "../../contracts/events.js";
import type { TJobState } from "../../contracts/primitives.js";
import { stateAfter } from "../job/transitions.js";
import type { LedgerFacts } from "./ledger-api.js";
import { type JobRec, type EntityRec, TenantState, idemKey, tenantSnapshot } from "./fold-state.js";
import { fingerprint } from "./fold-messages.js";
import { UndoLog } from "./fold-undo.js";
import type {
  CardFacts,
  ConversationFacts,
  FoldSnapshot,
  JobFacts,
  MessageFacts,
  PolicyFold,
  PolicyMode,
  ToolCallFacts,
} from "./policy/types.js";

/**
 * The ledger's own fold: the few facts the policy pack reads, per tenant, folded from accepted
 * events. Boot replays every stored event through `apply`, so it keeps small maps and never a
 * payload (1M events must fold in well under 1 GiB at ≥ 200k events/s). Every change it makes
 * goes through its undo log (see UndoLog), so a refused batch or a failed commit is rolled back.
 */

export interface FoldOptions {
  /**
   * Whether the log holds an event id (the store's unique index, rows of the open transaction
   * included). With it, the fold keeps a 30-bit fingerprint of each event id instead of the id
   * (a small integer in a set, ≈ 20 bytes an event where the id cost ≈ 75), and asks the log only
   * when a fingerprint matches: a duplicate, or one new id in about a thousand per million held.
   * Fingerprints are not undone on rollback: a stale one only costs that question.
   */
  knownEvent?: (tenantId: string, eventId: string) => boolean;
  /**
   * The `payload.message_id` of the tenant's event at a tenant seq (rows of the open transaction
   * included), or undefined. With it, the fold keeps chat messages by a fingerprint of their id
   * and asks the log only when one matches (see MessageTable); without it, by the id itself.
   */
  messageIdAt?: (tenantId: string, tenantSeq: number) => string | undefined;
}

export function createFold(opts: FoldOptions = {}): PolicyFold {
  const { knownEvent, messageIdAt } = opts;
  const tenants = new Map<string, TenantState>();
  const undo = new UndoLog();

  const tenantOf = (t: string): TenantState => {
    let s = tenants.get(t);
    if (!s) {
      s = new TenantState(messageIdAt ? (seq) => messageIdAt(t, seq) : undefined);
      tenants.set(t, s);
      // Undo runs newest-first, so by the time this runs the tenant's own entries are gone.
      if (undo.recording) undo.record(() => tenants.delete(t));
    }
    return s;
  };

  function setJobState(job: JobRec | undefined, next: TJobState | undefined): void {
    if (!job || !next || job.state === next) return;
    const prev = job.state;
    job.state = next;
    undo.record(() => (job.state = prev));
  }

  // biome-ignore lint/suspicious/noExplicitAny: replay hot path; the card passed the contract parse when it was appended
  function addCard(s: TenantState, card: any, messaged: boolean): void {
    if (!card || typeof card.card_id !== "string") return;
    let rec = s.cards.get(card.card_id);
    if (!rec) {
      rec = { job_id: card.job_id, conversation_id: card.conversation_id, buttons: new Map(), messaged: false };
      undo.setInMap(s.cards, card.card_id, rec);
    } else if (rec.job_id !== card.job_id || rec.conversation_id !== card.conversation_id) {
      // A card id belongs to the job that first used it; a clash never widens what it offers.
      return;
    }
    const cardRec = rec;
    if (messaged && !cardRec.messaged) {
      cardRec.messaged = true;
      undo.record(() => (cardRec.messaged = false));
    }
    const buttons = Array.isArray(card.buttons) ? card.buttons : [];
    for (const b of buttons) {
      const type = b?.action?.type;
      if (typeof b?.button_id !== "string" || typeof type !== "string" || cardRec.buttons.has(b.button_id)) continue;
      undo.setInMap(cardRec.buttons, b.button_id, type);
    }
  }

  /** Administration: a changed entity is a new record, so undo is one map entry. */
  // biome-ignore lint/suspicious/noExplicitAny: replay hot path; the payload passed the contract parse when it was appended
  function applyAdmin(s: TenantState, type: string, p: any): void {
    const rec = s.entities.get(p.entity_id);
    if (!rec) return;
    const next: EntityRec = { ...rec };
    if (type === "entity.role_changed") next.roles = p.roles;
    else if (type === "entity.deactivated") next.status = p.reason;
    else if (type === "entity.reactivated") delete next.status;
    else if (type === "agent.paused") next.paused = true;
    else delete next.paused;
    undo.setInMap(s.entities, p.entity_id, next);
  }

  function apply(event: TUblEvent): void {
    const s = tenantOf(event.tenant_id);
    // The tenant's seqs are gapless and the log writes events in the order they are folded (an
    // append folds each event just before writing it), so counting gives each event its seq;
    // an appended event's own `seq` is the client's and is not the one it gets.
    const seq = ++s.lastSeq;
    if (undo.recording) undo.record(() => (s.lastSeq = seq - 1));
    if (knownEvent) s.seenPrints.set(fingerprint(event.event_id), 0);
    else undo.addToSet(s.seen, event.event_id);
    // biome-ignore lint/suspicious/noExplicitAny: replay hot path; the payload passed the contract parse when it was appended
    const p = event.payload as any;
    switch (event.event_type) {
      case "entity.registered": {
        const rec: EntityRec = { actor_type: p.actor_type, display_name: p.display_name, roles: p.roles ?? [] };
        if (p.allowed_tools) rec.allowed_tools = p.allowed_tools;
        if (p.role) rec.role = p.role;
        // Registering again (a new name, new roles) keeps the tool modes admins chose.
        const before = s.entities.get(p.entity_id);
        if (before?.tool_modes) rec.tool_modes = before.tool_modes;
        // ... and what admins did to it: deactivated or paused stays so.
        if (before?.status) rec.status = before.status;
        if (before?.paused) rec.paused = before.paused;
        undo.setInMap(s.entities, p.entity_id, rec);
        return;
      }
      case "entity.role_changed":
      case "entity.deactivated":
      case "entity.reactivated":
      case "agent.paused":
      case "agent.resumed":
        applyAdmin(s, event.event_type, p);
        return;
      case "policy.overrides_set": {
        const prev = s.overrides;
        s.overrides = {
          modes: new Map(Object.entries(p.modes as Record<string, PolicyMode>)),
          params: new Map(Object.entries(p.params as Record<string, number>)),
        };
        undo.record(() => (s.overrides = prev));
        return;
      }
      case "agent.tool_mode_set": {
        const rec = s.entities.get(p.agent_entity_id);
        if (!rec) return;
        if (!rec.tool_modes) {
          rec.tool_modes = new Map();
          undo.record(() => delete rec.tool_modes);
        }
        undo.setInMap(rec.tool_modes, p.tool_name, p.mode);
        return;
      }
      case "conversation.created": {
        if (s.conversations.has(p.conversation_id)) return;
        const members = new Set<string>();
        for (const m of p.participants ?? []) members.add(m.entity_id);
        undo.setInMap(s.conversations, p.conversation_id, members);
        const ids = [...members];
        undo.setInMap(s.conversationMeta, p.conversation_id, {
          created_by: event.actor.entity_id,
          kind: p.kind ?? (ids.length === 2 ? "direct" : "group"),
          ...(p.visibility === "public" ? { public: true as const } : {}),
        });
        return;
      }
      case "conversation.joined": {
        const members = s.conversations.get(event.conversation_id);
        if (members) undo.addToSet(members, p.entity_id);
        return;
      }
      case "conversation.member_added": {
        const members = s.conversations.get(event.conversation_id);
        if (members) undo.addToSet(members, p.entity_id);
        // A direct chat someone else joins is a group from then on.
        const meta = s.conversationMeta.get(event.conversation_id);
        if (meta?.kind === "direct")
          undo.setInMap(s.conversationMeta, event.conversation_id, { ...meta, kind: "group" });
        return;
      }
      case "conversation.member_removed": {
        const members = s.conversations.get(event.conversation_id);
        if (members?.delete(p.entity_id)) undo.record(() => members.add(p.entity_id));
        return;
      }
      case "job.created": {
        if (s.jobs.has(p.job_id)) return;
        const requester =
          event.actor.actor_type === "human"
            ? event.actor.entity_id
            : event.causation_id
              ? s.recentHumanMessages.get(event.causation_id)
              : undefined;
        undo.setInMap(s.jobs, p.job_id, {
          state: "draft",
          conversation_id: p.conversation_id ?? event.conversation_id,
          owner_entity_id: p.owner_entity_id,
          title: p.title,
          ...(requester ? { requested_by: requester } : {}),
        });
        return;
      }
      case "job.handed_over": {
        const job = s.jobs.get(p.job_id);
        if (!job || job.owner_entity_id === p.to_entity_id) return;
        const prev = job.owner_entity_id;
        job.owner_entity_id = p.to_entity_id;
        undo.record(() => (job.owner_entity_id = prev));
        return;
      }
      case "job.proposed":
        setJobState(s.jobs.get(p.job_id), "proposed");
        addCard(s, p.proposed_card, false);
        return;
      case "job.approved": {
        const job = s.jobs.get(p.job_id);
        if (job && !job.approved) {
          job.approved = true;
          undo.record(() => delete job.approved);
        }
        setJobState(job, stateAfter(event));
        return;
      }
      case "job.rejected":
      case "job.state_changed":
        setJobState(s.jobs.get(p.job_id), stateAfter(event));
        return;
      case "job.progress":
        addCard(s, p.tracking_card, false);
        return;
      case "job.completed":
        setJobState(s.jobs.get(p.job_id), stateAfter(event));
        addCard(s, p.finished_card, false);
        return;
      case "message.sent":
        if (p.kind === "card") addCard(s, p.card, true);
        else if (event.actor.actor_type === "human") {
          if (undo.recording) undo.record(s.recentHumanMessages.undoOfAdd());
          s.recentHumanMessages.add(event.event_id, event.actor.entity_id);
        }
        {
          const messages = s.messages;
          const id: string = p.message_id;
          const row = messages.addNew(id, event.conversation_id, event.actor.entity_id, Date.parse(event.ts), seq);
          if (row >= 0) undo.record(() => messages.remove(id, row));
        }
        return;
      case "message.deleted": {
        const messages = s.messages;
        const row = messages.rowOf(p.message_id);
        if (row !== undefined && !messages.isDeleted(row)) {
          messages.setDeleted(row, true);
          undo.record(() => messages.setDeleted(row, false));
        }
        return;
      }
      case "tool.called": {
        if (s.toolCalls.has(p.tool_call_id)) return;
        undo.setInMap(s.toolCalls, p.tool_call_id, {
          job_id: event.job_id,
          tool_name: p.tool_name,
          ts_ms: Date.parse(event.ts),
          idempotency_key: p.idempotency_key,
          has_result: false,
        });
        undo.addToSet(s.idempotency, idemKey(event.job_id, p.tool_name, p.idempotency_key));
        return;
      }
      case "tool.result": {
        const call = s.toolCalls.get(p.tool_call_id);
        if (call && !call.has_result) {
          call.has_result = true;
          undo.record(() => (call.has_result = false));
        }
        return;
      }
      default:
        return;
    }
  }

  const get = (t: string) => tenants.get(t);

  return {
    apply,
    mark: () => undo.mark(),
    rollbackTo: (pos) => undo.rollbackTo(pos),
    release: (pos) => undo.release(pos),

    jobState: (t, jobId) => get(t)?.jobs.get(jobId)?.state,
    jobConversation: (t, jobId) => get(t)?.jobs.get(jobId)?.conversation_id,
    isMember(t, conversationId, entityId) {
      const s = get(t);
      if (!s) return false;
      if (conversationId === WORKSPACE_CONVERSATION_ID) return s.entities.has(entityId);
      return s.conversations.get(conversationId)?.has(entityId) ?? false;
    },
    entity(t, entityId) {
      return get(t)?.entities.get(entityId);
    },
    conversation(t, conversationId): ConversationFacts | undefined {
      const s = get(t);
      const meta = s?.conversationMeta.get(conversationId);
      const members = s?.conversations.get(conversationId);
      return meta && members
        ? { created_by: meta.created_by, kind: meta.kind, public: meta.public === true, members }
        : undefined;
    },

    job: (t, jobId): JobFacts | undefined => get(t)?.jobs.get(jobId),
    hasConversation: (t, c) => c === WORKSPACE_CONVERSATION_ID || (get(t)?.conversations.has(c) ?? false),
    card: (t, cardId): CardFacts | undefined => get(t)?.cards.get(cardId),
    toolCall: (t, id): ToolCallFacts | undefined => get(t)?.toolCalls.get(id),
    message: (t, id): MessageFacts | undefined => get(t)?.messages.get(id),
    hasToolIdempotencyKey: (t, jobId, tool, key) => get(t)?.idempotency.has(idemKey(jobId, tool, key)) ?? false,
    hasEvent(t, eventId) {
      const s = get(t);
      if (!s) return false;
      if (!knownEvent) return s.seen.has(eventId);
      return s.seenPrints.has(fingerprint(eventId)) && knownEvent(t, eventId);
    },
    entityCount: (t) => get(t)?.entities.size ?? 0,
    policyOverrides: (t) => get(t)?.overrides,
    activeOwnerCount(t) {
      let n = 0;
      for (const e of get(t)?.entities.values() ?? []) if (!e.status && e.roles.includes("owner")) n++;
      return n;
    },

    snapshot(): FoldSnapshot {
      const out: FoldSnapshot = {};
      for (const t of [...tenants.keys()].sort()) {
        const s = tenants.get(t) as TenantState;
        out[t] = tenantSnapshot(s);
      }
      return out;
    },
  };
}

/** True when two folds hold the same facts (used to show a rebuilt fold equals the live one). */
export function foldsEqual(a: PolicyFold, b: PolicyFold): boolean {
  return JSON.stringify(a.snapshot()) === JSON.stringify(b.snapshot());
}

/** What the ledger's door tells of the fold: its facts, and none of its other methods. */
export function factsOf(fold: LedgerFacts): LedgerFacts {
  return {
    jobState: (t, j) => fold.jobState(t, j),
    jobConversation: (t, j) => fold.jobConversation(t, j),
    isMember: (t, c, e) => fold.isMember(t, c, e),
    entity: (t, e) => fold.entity(t, e),
  };
}
