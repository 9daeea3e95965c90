import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { createArtifactStore, type ArtifactStore } from "../../../src/office/artifact-store.js";
import {
  buildInviteMessage,
  createOutboxWorker,
  type OutboxRow,
  type OutboxWorker,
  type OutboxWorkerDeps,
} from "../../../src/office/mail/index.js";
import { migrateOffice } from "../../../src/office/migrate.js";
import { officeOutbox } from "../../../src/office/schema.js";
import { createVault, type Vault } from "../../../src/office/vault/vault.js";
import { createManualClock } from "../../../src/shared/clock.js";
import { openDatabase, type Db } from "../../../src/shared/db.js";

export const T = "tnt_mail_001";
export const MAIL_FROM = { name: "Office Scheduler", address: "office@acme.test" };

/** A minimal RFC 5545 invite, the shape Office's `.ics` writer produces. */
export function inviteIcs(uid: string, attendees: Array<{ name: string; email: string }>): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//LogLine//Office//EN",
    "METHOD:REQUEST",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20251227T101500Z",
    "DTSTART:20251229T150000Z",
    "DTEND:20251229T153000Z",
    "SUMMARY:Quarterly review",
    `ORGANIZER;CN=${MAIL_FROM.name}:mailto:${MAIL_FROM.address}`,
    ...attendees.map(
      (a) => `ATTENDEE;CN=${a.name};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${a.email}`,
    ),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.join("\r\n")}\r\n`;
}

export type WorkerOpts = Partial<Pick<OutboxWorkerDeps, "transport" | "hooks" | "schedule" | "pollMs" | "from">>;

/**
 * A temp data dir with a real SQLite file, Office's migrations, the real vault and artifact
 * store, and workers built the way the server would wire them (recipients from the vault,
 * the message from the stored `.ics`). `reopen` is a process restart: a new connection on the
 * same file, new stores, new workers.
 */
export function createMailWorld() {
  const dir = mkdtempSync(join(tmpdir(), "office-mail-"));
  const dbPath = join(dir, "logline.db");
  const clock = createManualClock();
  let n = 0;
  const ids = (p: string) => `${p}_${(++n).toString(36).padStart(4, "a")}`;
  const names = new Map<string, string>();
  const workers: OutboxWorker[] = [];
  let db!: Db;
  let vault!: Vault;
  let artifacts!: ArtifactStore;

  const open = () => {
    db = openDatabase({ path: dbPath });
    migrateOffice(db);
    artifacts = createArtifactStore({ db, dataDir: dir, clock });
    vault = createVault({
      db,
      dataDir: dir,
      clock,
      ids,
      onErase: (t, ref, value, redacted) => void artifacts.forget(t, ref, value, redacted),
    });
  };
  open();

  const world = {
    dir,
    clock,
    get db() {
      return db;
    },
    get vault() {
      return vault;
    },
    get artifacts() {
      return artifacts;
    },
    /** Vaults the attendees, saves the `.ics` and enqueues the invite, as the invite tool does. */
    enqueue(o: { attendees?: Array<{ name: string; email: string }>; status?: "held" | "queued"; key?: string } = {}) {
      const attendees = o.attendees ?? [{ name: "Ann Lee", email: "ann@example.com" }];
      const put = attendees.map((a) => vault.put(T, "email", a.email));
      for (const [i, p] of put.entries()) names.set(p.vault_ref, attendees[i]!.name);
      const artifactId = ids("art");
      const uid = `${ids("evt")}@logline.office`;
      const q = artifacts.enqueue({
        outbox_id: ids("obx"),
        tenant_id: T,
        job_id: "job_mail_1",
        idempotency_key: o.key ?? ids("idem"),
        to_redacted: put.map((p) => p.redacted).join(", "),
        subject: "Invitation: Quarterly review",
        body: "Office Scheduler invited you to “Quarterly review”.",
        artifact_id: artifactId,
        vault_refs: put.map((p) => p.vault_ref),
        ...(o.status ? { status: o.status } : {}),
      });
      artifacts.save({
        artifact_id: artifactId,
        tenant_id: T,
        job_id: "job_mail_1",
        filename: "invite.ics",
        mime_type: "text/calendar",
        bytes: Buffer.from(inviteIcs(uid, attendees)),
        vault_refs: put.map((p) => p.vault_ref),
      });
      return { outboxId: q.outbox_id, artifactId, uid, refs: put.map((p) => p.vault_ref), status: q.status };
    },
    worker(opts: WorkerOpts = {}): OutboxWorker {
      const w = createOutboxWorker({
        db,
        clock,
        from: MAIL_FROM,
        pollMs: 60_000,
        ...opts,
        recipients(row) {
          const refs = JSON.parse(row.vaultRefs ?? "[]") as string[];
          const to = refs.flatMap((ref) => {
            const email = vault.get(row.tenantId, ref);
            return email ? [{ name: names.get(ref) ?? "Guest", email }] : [];
          });
          return to.length ? to : null;
        },
        message(row, to) {
          const file = row.artifactId ? artifacts.get(row.tenantId, row.artifactId) : null;
          if (!file) throw new Error("the invite file is gone");
          return buildInviteMessage({
            outboxId: row.outboxId,
            from: MAIL_FROM,
            to,
            subject: row.subject,
            text: row.body,
            ics: file.bytes.toString("utf8"),
          });
        },
      });
      workers.push(w);
      return w;
    },
    row(outboxId: string): OutboxRow {
      return drizzle(db).select().from(officeOutbox).where(eq(officeOutbox.outboxId, outboxId)).get()!;
    },
    /** Raw columns (snake_case), for checks that bypass the store. */
    raw(outboxId: string): Record<string, unknown> {
      return db.prepare("SELECT * FROM office_outbox WHERE outbox_id = ?").get(outboxId) as Record<string, unknown>;
    },
    async reopen() {
      for (const w of workers.splice(0)) await w.stop();
      db.close();
      open();
    },
    async cleanup() {
      for (const w of workers.splice(0)) await w.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

export type MailWorld = ReturnType<typeof createMailWorld>;

/** Steps the manual clock and waits for the delivery pass its timers started. */
export async function advance(w: MailWorld, worker: OutboxWorker, ms: number): Promise<void> {
  await w.clock.advance(ms);
  await worker.idle();
}
