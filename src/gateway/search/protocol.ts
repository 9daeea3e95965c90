/**
 * What the search index's two sides say to each other over the worker's port (the thread is
 * search-worker.mjs, the side that follows the ledger search-index.ts). Messages are handled in
 * the order sent: writes, then queries, so a query sees every write sent before it.
 */

/** What one committed event changes in the index; `seq` is the event's tenant_seq. */
export type IndexOp =
  | {
      k: "sent";
      t: string;
      seq: number;
      conv: string;
      msg: string;
      ev: string;
      ts: string;
      author: string;
      authorType: string;
      body: string;
    }
  | { k: "edited"; t: string; seq: number; conv: string; msg: string; body: string }
  | { k: "deleted"; t: string; seq: number; conv: string; msg: string };

/** One message found, before the read model names its conversation and author. */
export interface IndexHit {
  conversation_id: string;
  message_id: string;
  event_id: string;
  seq: number;
  ts: string;
  author_entity_id: string;
  author_type: string;
  edited: boolean;
  marked: string;
}

export interface IndexQuery {
  tenantId: string;
  match: string;
  conversationIds: readonly string[];
  beforeSeq: number;
  limit: number;
}

/** Per tenant, the last event the index has taken in: its tenant_seq and event id. */
type Positions = Array<[tenantId: string, seq: number, eventId: string]>;

export type ToWorker =
  | { op: "write"; ops: IndexOp[]; seen: Positions }
  | { op: "positions"; id: number }
  /** Answered once every message sent before it is handled (the catch-up's backpressure). */
  | { op: "ping"; id: number }
  | { op: "forget"; tenantId: string }
  | { op: "query"; id: number; q: IndexQuery }
  | { op: "close"; id: number };

export type FromWorker =
  | { id: number; positions: Positions }
  | { id: number; hits: IndexHit[] }
  | { id: number; closed: true }
  | { id: number; pong: true }
  | { id: number; error: string }
  | { log: "error"; message: string; err: string };
