import type { TJobState } from "../../contracts/primitives.js";
import { MessageTable } from "./fold-messages.js";
import { PrintTable } from "./print-table.js";
import { RecentSenders } from "./recent-senders.js";
import type { FoldSnapshot, PolicyOverrides, TToolMode } from "./policy/types.js";

/**
 * What the ledger's fold keeps per tenant: small maps of jobs, conversations, entities, cards,
 * tool calls and messages, never a payload; and the same state as a sorted, comparable snapshot.
 */

export interface JobRec {
  state: TJobState;
  conversation_id: string;
  owner_entity_id: string;
  title: string;
  /** True once a person's job.approved was accepted. */
  approved?: boolean;
  /** The person whose message started the job (who may hand it over). */
  requested_by?: string;
}

export interface EntityRec {
  actor_type: "human" | "agent";
  display_name: string;
  roles: string[];
  allowed_tools?: string[];
  role?: string;
  /** agent.tool_mode_set: tool → auto / approve / off. */
  tool_modes?: Map<string, TToolMode>;
  /** entity.deactivated (cleared by entity.reactivated). */
  status?: "deactivated" | "removed";
  /** agent.paused (cleared by agent.resumed). */
  paused?: boolean;
}

export interface CardRec {
  job_id: string;
  conversation_id: string;
  buttons: Map<string, string>;
  messaged: boolean;
}

export interface ToolCallRec {
  job_id: string | undefined;
  tool_name: string;
  ts_ms: number;
  idempotency_key: string;
  has_result: boolean;
}

export interface ConversationMeta {
  created_by: string;
  kind: "direct" | "group";
  /** A public channel (anyone of the workspace may join it); absent: private. */
  public?: true;
}

const REQUESTER_LOOKBACK = 1024;

export class TenantState {
  /** Event ids, or with `knownEvent` only their fingerprints (see FoldOptions). */
  readonly seen = new Set<string>();
  readonly seenPrints = new PrintTable();
  readonly jobs = new Map<string, JobRec>();
  /** conversation_id → member entity ids (the workspace conversation is implicit). */
  readonly conversations = new Map<string, Set<string>>();
  /** conversation_id → who created it and whether it is a direct chat (membership rules read these). */
  readonly conversationMeta = new Map<string, ConversationMeta>();
  readonly entities = new Map<string, EntityRec>();
  readonly cards = new Map<string, CardRec>();
  readonly toolCalls = new Map<string, ToolCallRec>();
  /** message_id → where and by whom it was sent (what edits, deletions, reactions and replies point at). */
  readonly messages: MessageTable;
  /** job \u0001 tool \u0001 idempotency key */
  readonly idempotency = new Set<string>();
  /**
   * The latest people's messages (event id → sender), oldest first: a job.created names the
   * message that led to it as its causation, and this is how the fold learns who asked.
   * Bounded: Office answers a message within moments, never thousands of messages later.
   */
  readonly recentHumanMessages = new RecentSenders(REQUESTER_LOOKBACK);
  /** The workspace's last `policy.overrides_set` (absent: the pack as it is). */
  overrides: PolicyOverrides | undefined;
  /** The tenant seq of the last event folded: the log writes events in the order they are folded. */
  lastSeq = 0;

  /** `messageIdAt`: the message id the log holds at a tenant seq (see MessageTable). */
  constructor(messageIdAt?: (tenantSeq: number) => string | undefined) {
    this.messages = new MessageTable(messageIdAt);
  }
}

export type Undo = () => void;

export const idemKey = (jobId: string | undefined, tool: string, key: string) =>
  `${jobId ?? ""}\u0001${tool}\u0001${key}`;

function sortedObject<V>(map: ReadonlyMap<string, V>, f: (v: V) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of [...map.keys()].sort()) out[k] = f(map.get(k) as V);
  return out;
}

/** One tenant's state as plain sorted data (a fold's snapshot, compared after a rebuild). */
export function tenantSnapshot(s: TenantState): FoldSnapshot[string] {
  return {
    seen: [...s.seen].sort(),
    jobs: sortedObject(s.jobs, (j) => ({ ...j })),
    conversations: sortedObject(s.conversations, (m) => [...m].sort()),
    conversation_meta: sortedObject(s.conversationMeta, (m) => ({ ...m })),
    entities: sortedObject(s.entities, (e) => ({
      ...e,
      roles: [...e.roles],
      ...(e.tool_modes ? { tool_modes: sortedObject(e.tool_modes, (m) => m) } : {}),
    })),
    cards: sortedObject(s.cards, (c) => ({
      job_id: c.job_id,
      conversation_id: c.conversation_id,
      messaged: c.messaged,
      buttons: sortedObject(c.buttons, (v) => v),
    })),
    tool_calls: sortedObject(s.toolCalls, (c) => ({ ...c })),
    messages: sortedObject(new Map(s.messages.entries()), (m) => m),
    idempotency: [...s.idempotency].sort(),
    recent_human_messages: sortedObject(new Map(s.recentHumanMessages.entries()), (v) => v),
    ...(s.overrides
      ? {
          overrides: {
            modes: sortedObject(s.overrides.modes, (m) => m),
            params: sortedObject(s.overrides.params, (v) => v),
          },
        }
      : {}),
  };
}
