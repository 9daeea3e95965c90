import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import type { StoredArtifact } from "./office-api.js";
import { officeArtifacts, officeOutbox } from "./schema.js";

export interface ArtifactStore {
  save(a: { artifact_id: string; tenant_id: string; job_id: string; filename: string; mime_type: string; bytes: Buffer }): { size_bytes: number; sha256: string };
  get(tenantId: string, artifactId: string): StoredArtifact | null;
  /** Queues a message to someone outside the workspace; the same idempotency key queues once. */
  enqueue(o: { outbox_id: string; tenant_id: string; job_id: string; idempotency_key: string; to_vault_ref?: string; to_redacted: string; subject: string; body: string; artifact_id?: string }): { outbox_id: string; artifact_id: string | null; created: boolean };
  outbox(tenantId: string, jobId?: string): Array<typeof officeOutbox.$inferSelect>;
}

/** Files under DATA_DIR/artifacts/<tenant>/, rows in office_artifacts; a tenant reads only its own. */
export function createArtifactStore(deps: { db: Db; dataDir: string; clock: Clock }): ArtifactStore {
  const orm = drizzle(deps.db);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, "_");
  return {
    save(a) {
      const dir = join(deps.dataDir, "artifacts", safe(a.tenant_id));
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${safe(a.artifact_id)}-${safe(a.filename)}`);
      writeFileSync(path, a.bytes);
      const sha256 = createHash("sha256").update(a.bytes).digest("hex");
      orm
        .insert(officeArtifacts)
        .values({ artifactId: a.artifact_id, tenantId: a.tenant_id, jobId: a.job_id, filename: a.filename, mimeType: a.mime_type, path, sizeBytes: a.bytes.length, sha256, createdAt: deps.clock.iso() })
        .onConflictDoNothing()
        .run();
      return { size_bytes: a.bytes.length, sha256 };
    },
    get(tenantId, artifactId) {
      const row = orm.select().from(officeArtifacts).where(and(eq(officeArtifacts.tenantId, tenantId), eq(officeArtifacts.artifactId, artifactId))).get();
      if (!row) return null;
      let bytes: Buffer;
      try {
        bytes = readFileSync(row.path);
      } catch {
        return null;
      }
      return { artifact_id: row.artifactId, tenant_id: row.tenantId, ...(row.jobId ? { job_id: row.jobId } : {}), filename: row.filename, mime_type: row.mimeType, bytes };
    },
    enqueue(o) {
      const existing = orm.select().from(officeOutbox).where(and(eq(officeOutbox.tenantId, o.tenant_id), eq(officeOutbox.idempotencyKey, o.idempotency_key))).get();
      if (existing) return { outbox_id: existing.outboxId, artifact_id: existing.artifactId, created: false };
      orm
        .insert(officeOutbox)
        .values({
          outboxId: o.outbox_id,
          tenantId: o.tenant_id,
          jobId: o.job_id,
          idempotencyKey: o.idempotency_key,
          toVaultRef: o.to_vault_ref ?? null,
          toRedacted: o.to_redacted,
          subject: o.subject,
          body: o.body,
          artifactId: o.artifact_id ?? null,
          status: "queued",
          createdAt: deps.clock.iso(),
        })
        .run();
      return { outbox_id: o.outbox_id, artifact_id: o.artifact_id ?? null, created: true };
    },
    outbox(tenantId, jobId) {
      const rows = orm.select().from(officeOutbox).where(eq(officeOutbox.tenantId, tenantId)).all();
      return jobId ? rows.filter((r) => r.jobId === jobId) : rows;
    },
  };
}
