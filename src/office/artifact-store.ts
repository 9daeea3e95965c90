import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import writeFileAtomic from "write-file-atomic";
import { join } from "node:path";
import { and, eq, isNull, like, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import { AppError } from "../shared/errors.js";
import type { StoredArtifact } from "./office-api.js";
import { resolveStoredPath, storedPath } from "../shared/data-paths.js";
import { redactIcs, replaceInsensitive } from "./tools/ics-redact.js";
import { officeArtifacts, officeOutbox } from "./schema.js";

export interface ArtifactStore {
  /** `vault_refs`: the vault entries whose values the bytes embed (an invite's attendees). */
  save(a: {
    artifact_id: string;
    tenant_id: string;
    job_id: string;
    filename: string;
    mime_type: string;
    bytes: Buffer;
    vault_refs?: string[];
  }): {
    size_bytes: number;
    sha256: string;
  };
  get(tenantId: string, artifactId: string): StoredArtifact | null;
  /**
   * Queues a message to someone outside the workspace; the same idempotency key queues once
   * (the second call returns the first row, whatever it is given). `status` is `held` when this
   * server has no mail configured (kept, never sent until resent) and `queued` (the default)
   * otherwise: due at once for the mail worker. Throws VALIDATION_ERROR without a recipient.
   */
  enqueue(o: {
    outbox_id: string;
    tenant_id: string;
    job_id: string;
    idempotency_key: string;
    to_vault_ref?: string;
    to_redacted: string;
    subject: string;
    body: string;
    artifact_id?: string;
    vault_refs?: string[];
    status?: "held" | "queued";
  }): {
    outbox_id: string;
    artifact_id: string | null;
    created: boolean;
    status: string;
  };
  outbox(tenantId: string, jobId?: string): Array<typeof officeOutbox.$inferSelect>;
  /**
   * Replaces every copy of an erased vault value (files and outbox rows that embed `vaultRef`)
   * with its redacted form; called before the vault forgets the value. Returns what it rewrote.
   */
  forget(tenantId: string, vaultRef: string, value: string, redacted: string): { artifacts: number; outbox: number };
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
      // Whole or not at all (temp file, fsync, rename); a row that cannot be written (a full
      // disk) takes the file with it, so no file is left that nothing names.
      writeFileAtomic.sync(path, a.bytes);
      const sha256 = createHash("sha256").update(a.bytes).digest("hex");
      try {
        orm
          .insert(officeArtifacts)
          .values({
            artifactId: a.artifact_id,
            tenantId: a.tenant_id,
            jobId: a.job_id,
            filename: a.filename,
            mimeType: a.mime_type,
            path: storedPath(deps.dataDir, path),
            sizeBytes: a.bytes.length,
            sha256,
            createdAt: deps.clock.iso(),
            vaultRefs: a.vault_refs?.length ? JSON.stringify(a.vault_refs) : null,
          })
          .onConflictDoNothing()
          .run();
      } catch (err) {
        rmSync(path, { force: true });
        throw err;
      }
      return { size_bytes: a.bytes.length, sha256 };
    },
    get(tenantId, artifactId) {
      const row = orm
        .select()
        .from(officeArtifacts)
        .where(and(eq(officeArtifacts.tenantId, tenantId), eq(officeArtifacts.artifactId, artifactId)))
        .get();
      if (!row) return null;
      let bytes: Buffer;
      try {
        bytes = readFileSync(resolveStoredPath(deps.dataDir, row.path));
      } catch {
        return null;
      }
      return {
        artifact_id: row.artifactId,
        tenant_id: row.tenantId,
        ...(row.jobId ? { job_id: row.jobId } : {}),
        filename: row.filename,
        mime_type: row.mimeType,
        bytes,
      };
    },
    enqueue(o) {
      const refs = o.vault_refs?.length ? o.vault_refs : o.to_vault_ref ? [o.to_vault_ref] : [];
      if (!refs.length)
        throw new AppError("VALIDATION_ERROR", "An outbox message needs at least one recipient", {
          field: "vault_refs",
        });
      const existing = orm
        .select()
        .from(officeOutbox)
        .where(and(eq(officeOutbox.tenantId, o.tenant_id), eq(officeOutbox.idempotencyKey, o.idempotency_key)))
        .get();
      if (existing)
        return {
          outbox_id: existing.outboxId,
          artifact_id: existing.artifactId,
          created: false,
          status: existing.status,
        };
      const status = o.status ?? "queued";
      const now = deps.clock.iso();
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
          status,
          createdAt: now,
          vaultRefs: JSON.stringify(refs),
          // Held rows get no due time: only a resend (once mail is configured) makes them due.
          nextAttemptAt: status === "queued" ? now : null,
          updatedAt: now,
        })
        .run();
      return { outbox_id: o.outbox_id, artifact_id: o.artifact_id ?? null, created: true, status };
    },
    outbox(tenantId, jobId) {
      const rows = orm.select().from(officeOutbox).where(eq(officeOutbox.tenantId, tenantId)).all();
      return jobId ? rows.filter((r) => r.jobId === jobId) : rows;
    },
    forget(tenantId, vaultRef, value, redacted) {
      const quoted = `%${JSON.stringify(vaultRef)}%`;
      const replace = (text: string) => replaceInsensitive(text, value, redacted);
      let artifacts = 0;
      let outbox = 0;
      deps.db.transaction(() => {
        const rows = orm
          .select()
          .from(officeOutbox)
          .where(
            and(
              eq(officeOutbox.tenantId, tenantId),
              or(like(officeOutbox.vaultRefs, quoted), eq(officeOutbox.toVaultRef, vaultRef)),
            ),
          )
          .all();
        for (const r of rows) {
          orm
            .update(officeOutbox)
            .set({
              toVaultRef: r.toVaultRef === vaultRef ? null : r.toVaultRef,
              toRedacted: replace(r.toRedacted),
              subject: replace(r.subject),
              body: replace(r.body),
            })
            .where(eq(officeOutbox.outboxId, r.outboxId))
            .run();
          outbox++;
        }
        // Files written before refs were recorded are matched through their outbox row or, for
        // calendars, by content: an erase must not miss a copy because it predates the column.
        const linked = new Set(rows.map((r) => r.artifactId).filter((id): id is string => !!id));
        const files = orm
          .select()
          .from(officeArtifacts)
          .where(
            and(
              eq(officeArtifacts.tenantId, tenantId),
              or(like(officeArtifacts.vaultRefs, quoted), isNull(officeArtifacts.vaultRefs)),
            ),
          )
          .all();
        for (const f of files) {
          if (f.vaultRefs === null && !linked.has(f.artifactId) && f.mimeType !== "text/calendar") continue;
          let before: string;
          const file = resolveStoredPath(deps.dataDir, f.path);
          try {
            before = readFileSync(file, "utf8");
          } catch {
            continue; // the file is gone already
          }
          const after = f.mimeType === "text/calendar" ? redactIcs(before, value, redacted) : replace(before);
          if (after === before) continue;
          const bytes = Buffer.from(after, "utf8");
          // Rewritten beside and renamed: a full disk leaves the old file, never half of it.
          writeFileAtomic.sync(file, bytes);
          orm
            .update(officeArtifacts)
            .set({ sizeBytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") })
            .where(eq(officeArtifacts.artifactId, f.artifactId))
            .run();
          artifacts++;
        }
      })();
      return { artifacts, outbox };
    },
  };
}
