import type { Db } from "../../shared/db.js";
import { migrateOffice } from "../migrate.js";
import { RECENT_LIMIT, emptyThreadContext, type ThreadContext } from "./thread-context.js";

export interface StoredPacket {
  id: string;
  tenant_id: string;
  conversation_id: string;
  turn: number;
  created_at: string;
  sender_role: "agent" | "assistant";
  packet_type: "request" | "response";
  in_reply_to_request_id: string | null;
  model_id: string | null;
  job_id: string | null;
  outcome: string | null;
  redaction: "default" | "full";
  packet: Record<string, unknown>;
}

export interface LlmStore {
  getThreadContext(tenantId: string, conversationId: string): ThreadContext;
  saveThreadContext(tenantId: string, conversationId: string, ctx: ThreadContext, now: string): void;
  /** Reserves the next turn number of a conversation (1, 2, …). */
  nextTurn(tenantId: string, conversationId: string, now: string): number;
  /** The packet is stored as JSON: any request or response packet. */
  savePacket(p: Omit<StoredPacket, "packet"> & { packet: object }): void;
  listPackets(tenantId: string, q: { conversationId?: string; jobId?: string; limit?: number }): StoredPacket[];
}

interface CtxRow {
  last_job_id: string | null;
  recent_job_ids: string;
  pinned_job_id: string | null;
  focus_job_id: string | null;
  turn: number;
}

/**
 * SQLite access for the LLM layer's two tables (schema.ts). Every read and write is scoped by
 * tenant: a conversation id from another tenant simply has no row here.
 */
export function createLlmStore(db: Db): LlmStore {
  // The tables come from Office's generated migrations (0001_llm_tables); applying them twice is a no-op.
  migrateOffice(db);
  const getCtx = db.prepare<[string, string], CtxRow>(
    "SELECT last_job_id, recent_job_ids, pinned_job_id, focus_job_id, turn FROM office_thread_context WHERE tenant_id = ? AND conversation_id = ?",
  );
  const upsertCtx = db.prepare(
    `INSERT INTO office_thread_context (tenant_id, conversation_id, last_job_id, recent_job_ids, pinned_job_id, focus_job_id, turn, updated_at)
     VALUES (@tenant_id, @conversation_id, @last_job_id, @recent_job_ids, @pinned_job_id, @focus_job_id, 0, @updated_at)
     ON CONFLICT (tenant_id, conversation_id) DO UPDATE SET last_job_id = excluded.last_job_id, recent_job_ids = excluded.recent_job_ids,
       pinned_job_id = excluded.pinned_job_id, focus_job_id = excluded.focus_job_id, updated_at = excluded.updated_at`,
  );
  const bumpTurn = db.prepare<[string, string, string]>(
    `INSERT INTO office_thread_context (tenant_id, conversation_id, recent_job_ids, turn, updated_at) VALUES (?, ?, '[]', 1, ?)
     ON CONFLICT (tenant_id, conversation_id) DO UPDATE SET turn = turn + 1`,
  );
  const insertPacket = db.prepare(
    `INSERT INTO office_llm_packets (id, tenant_id, conversation_id, turn, created_at, sender_role, packet_type, in_reply_to_request_id, model_id, job_id, outcome, redaction, packet_json)
     VALUES (@id, @tenant_id, @conversation_id, @turn, @created_at, @sender_role, @packet_type, @in_reply_to_request_id, @model_id, @job_id, @outcome, @redaction, @packet_json)`,
  );

  return {
    getThreadContext(tenantId, conversationId) {
      const row = getCtx.get(tenantId, conversationId);
      if (!row) return emptyThreadContext();
      let recent: string[] = [];
      try {
        const parsed: unknown = JSON.parse(row.recent_job_ids);
        if (Array.isArray(parsed))
          recent = parsed.filter((x): x is string => typeof x === "string").slice(0, RECENT_LIMIT);
      } catch {
        recent = [];
      }
      return {
        recentJobIds: recent,
        ...(row.last_job_id ? { lastJobId: row.last_job_id } : {}),
        ...(row.pinned_job_id ? { pinnedJobId: row.pinned_job_id } : {}),
        ...(row.focus_job_id ? { focusJobId: row.focus_job_id } : {}),
      };
    },
    saveThreadContext(tenantId, conversationId, ctx, now) {
      upsertCtx.run({
        tenant_id: tenantId,
        conversation_id: conversationId,
        last_job_id: ctx.lastJobId ?? null,
        recent_job_ids: JSON.stringify(ctx.recentJobIds.slice(0, RECENT_LIMIT)),
        pinned_job_id: ctx.pinnedJobId ?? null,
        focus_job_id: ctx.focusJobId ?? null,
        updated_at: now,
      });
    },
    nextTurn(tenantId, conversationId, now) {
      bumpTurn.run(tenantId, conversationId, now);
      return getCtx.get(tenantId, conversationId)!.turn;
    },
    savePacket(p) {
      insertPacket.run({ ...p, packet_json: JSON.stringify(p.packet) });
    },
    listPackets(tenantId, q) {
      const where = ["tenant_id = ?"];
      const args: unknown[] = [tenantId];
      if (q.conversationId) where.push("conversation_id = ?"), args.push(q.conversationId);
      if (q.jobId) where.push("job_id = ?"), args.push(q.jobId);
      const limit = Math.min(Math.max(q.limit ?? 50, 1), 500);
      const rows = db
        .prepare(
          `SELECT * FROM office_llm_packets WHERE ${where.join(" AND ")} ORDER BY turn DESC, created_at DESC LIMIT ${limit}`,
        )
        .all(...args) as Array<Omit<StoredPacket, "packet"> & { packet_json: string }>;
      return rows.map(({ packet_json, ...r }) => ({
        ...r,
        packet: JSON.parse(packet_json) as Record<string, unknown>,
      }));
    },
  };
}
