import type { TSuggestionView } from "../../../contracts/llm.js";
import type { Db } from "../../shared/db.js";
import { migrateOffice } from "../migrate.js";

/** How long a shown suggestion can still be applied: long enough for a person to come back to the drawer. */
export const SUGGESTION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The suggestions Assist showed, per tenant and job (office_assist_suggestions). Every read and
 * write names the tenant and the job, so a suggestion id from another tenant or job has no row.
 */
export interface AssistStore {
  /** Records what was shown; a suggestion shown again (rules ids are stable) is offered afresh. Drops expired rows. */
  offer(tenantId: string, jobId: string, views: TSuggestionView[], nowMs: number): void;
  /** An offered, unexpired suggestion, or null. */
  offered(tenantId: string, jobId: string, suggestionId: string, nowMs: number): TSuggestionView | null;
  /** offered → applied; false when it was not on offer (applied by another click, expired, unknown). */
  claim(tenantId: string, jobId: string, suggestionId: string, nowMs: number): boolean;
  /** applied → done, returning what was applied; null when there is nothing left to carry out. */
  take(tenantId: string, jobId: string, suggestionId: string): TSuggestionView | null;
}

export function createAssistStore(db: Db): AssistStore {
  migrateOffice(db);
  const purge = db.prepare<[string]>("DELETE FROM office_assist_suggestions WHERE expires_at < ?");
  const upsert = db.prepare(
    `INSERT INTO office_assist_suggestions (tenant_id, job_id, suggestion_id, view_json, status, created_at, expires_at)
     VALUES (@tenant_id, @job_id, @suggestion_id, @view_json, 'offered', @created_at, @expires_at)
     ON CONFLICT (tenant_id, job_id, suggestion_id) DO UPDATE SET view_json = excluded.view_json, status = 'offered',
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  const getOffered = db.prepare<[string, string, string, string], { view_json: string }>(
    "SELECT view_json FROM office_assist_suggestions WHERE tenant_id = ? AND job_id = ? AND suggestion_id = ? AND status = 'offered' AND expires_at >= ?",
  );
  const claimRow = db.prepare<[string, string, string, string]>(
    "UPDATE office_assist_suggestions SET status = 'applied' WHERE tenant_id = ? AND job_id = ? AND suggestion_id = ? AND status = 'offered' AND expires_at >= ?",
  );
  const getApplied = db.prepare<[string, string, string], { view_json: string }>(
    "SELECT view_json FROM office_assist_suggestions WHERE tenant_id = ? AND job_id = ? AND suggestion_id = ? AND status = 'applied'",
  );
  const markDone = db.prepare<[string, string, string]>(
    "UPDATE office_assist_suggestions SET status = 'done' WHERE tenant_id = ? AND job_id = ? AND suggestion_id = ? AND status = 'applied'",
  );
  const iso = (ms: number) => new Date(ms).toISOString();
  const parse = (row: { view_json: string } | undefined) =>
    row ? (JSON.parse(row.view_json) as TSuggestionView) : null;

  const offerAll = db.transaction((tenantId: string, jobId: string, views: TSuggestionView[], nowMs: number) => {
    purge.run(iso(nowMs));
    for (const v of views) {
      upsert.run({
        tenant_id: tenantId,
        job_id: jobId,
        suggestion_id: v.suggestion_id,
        view_json: JSON.stringify(v),
        created_at: iso(nowMs),
        expires_at: iso(nowMs + SUGGESTION_TTL_MS),
      });
    }
  });
  const takeOne = db.transaction((tenantId: string, jobId: string, suggestionId: string) => {
    const v = parse(getApplied.get(tenantId, jobId, suggestionId));
    if (v) markDone.run(tenantId, jobId, suggestionId);
    return v;
  });

  return {
    offer: (t, j, views, nowMs) => offerAll(t, j, views, nowMs),
    offered: (t, j, s, nowMs) => parse(getOffered.get(t, j, s, iso(nowMs))),
    claim: (t, j, s, nowMs) => claimRow.run(t, j, s, iso(nowMs)).changes === 1,
    take: (t, j, s) => takeOne(t, j, s),
  };
}
