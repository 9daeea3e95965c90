import type { TStoredEvent } from "../../../contracts/events.js";
import type { TNotification } from "../../../contracts/notifications.js";
import { TERMINAL_JOB_STATES } from "../../../contracts/primitives.js";
import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import type { Locale } from "../../shared/i18n.js";
import type { Projector } from "../projections/projector.js";
import type { ThreadRow } from "../projections/state.js";
import { isFollowing } from "../projections/threads.js";
import type { TenantState } from "../projections/state.js";
import type { SignInMailer } from "../sessions/index.js";
import { digestMessage } from "./digest-mail.js";

/** What the digest tells of: things that wait on a person until they act (not news of a finished job). */
const WAITING_KINDS = new Set(["direct_message", "mention", "thread_reply", "job_approval", "job_waiting"]);
const TERMINAL = new Set<string>(TERMINAL_JOB_STATES);

export interface DigestDeps {
  db: Db;
  clock: Clock;
  projector: Projector;
  afterMinutes: number;
  /** The language of people whose profile names none (DEFAULT_LOCALE). */
  defaultLocale?: Locale | undefined;
  /** Absent: this server sends no mail, and the digest is unavailable. */
  mailer: SignInMailer | undefined;
  /** The person's address, read from the vault when a digest is due. */
  addressOf: (tenantId: string, vaultRef: string) => string | undefined;
  publicUrl: () => string | undefined;
  logger: { warn(o: object, m: string): void };
  /** How often due items are looked for (default one minute). */
  tickMs?: number;
  /** Whether this process mails digests now (on PostgreSQL, the lease holder alone); absent: always. */
  active?: () => boolean;
}

export interface Digest {
  readonly afterMinutes: number;
  readonly available: boolean;
  /** After a live event's notifications were decided: queue those that wait on someone who asked for the digest. */
  note(
    state: TenantState,
    ev: TStoredEvent,
    told: ReadonlyArray<{ entity_id: string; notification: TNotification }>,
  ): void;
  /** Mails what is due now (the timer calls this); resolves when the mail server took each message. */
  runDue(): Promise<void>;
  close(): void;
}

interface Row {
  tenant_id: string;
  entity_id: string;
  event_id: string;
  kind: string;
  conversation_id: string;
  job_id: string | null;
  seq: number;
  title: string;
  body: string;
  url: string;
}

/**
 * The e-mail digest: what waited on a person for DIGEST_AFTER_MINUTES and still waits — a
 * direct message or mention still unread, a reply in a thread they follow still unread, a job
 * still to approve or still waiting on them — is
 * mailed to them once, in one message per person per run, with links built from the public URL.
 * Only people who opted in (their profile's `email_digest`) and have an address on file get one.
 */
export function createDigest(deps: DigestDeps): Digest {
  const afterMs = deps.afterMinutes * 60_000;
  const insert = deps.db.prepare(
    "INSERT OR IGNORE INTO gateway_digest_items (tenant_id, entity_id, event_id, kind, conversation_id, job_id, seq, title, body, url, noted_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const due = deps.db.prepare<[number], Row>(
    "SELECT tenant_id, entity_id, event_id, kind, conversation_id, job_id, seq, title, body, url FROM gateway_digest_items WHERE sent_at IS NULL AND noted_ms <= ? ORDER BY noted_ms",
  );
  const drop = deps.db.prepare(
    "DELETE FROM gateway_digest_items WHERE tenant_id = ? AND entity_id = ? AND event_id = ?",
  );
  const markSent = deps.db.prepare(
    "UPDATE gateway_digest_items SET sent_at = ? WHERE tenant_id = ? AND entity_id = ? AND event_id = ?",
  );

  /** The thread a reply (its message.sent event) belongs to. */
  function threadOfReply(state: TenantState, r: Row): ThreadRow | undefined {
    for (const rootId of state.threadsByConversation.get(r.conversation_id) ?? []) {
      const t = state.threads.get(rootId);
      if (t?.replies.some((it) => it.event_id === r.event_id)) return t;
    }
    return undefined;
  }

  /** Still waiting on them: the message unread, the job still to approve or still waiting on them. */
  function stillWaits(state: TenantState, r: Row): boolean {
    if (r.kind === "thread_reply") {
      // Still a member, still following, the reply still there and not read in the thread.
      const t = threadOfReply(state, r);
      const reply = t?.replies.find((it) => it.event_id === r.event_id);
      if (!t || !reply || reply.deleted) return false;
      const member = state.conversations.get(r.conversation_id)?.participants.has(r.entity_id) ?? false;
      return member && isFollowing(t, r.entity_id) && (t.read.get(r.entity_id) ?? 0) < r.seq;
    }
    if (r.kind === "direct_message" || r.kind === "mention") {
      const conv = state.conversations.get(r.conversation_id);
      return Boolean(conv?.participants.has(r.entity_id)) && (conv?.read_marks.get(r.entity_id) ?? 0) < r.seq;
    }
    const job = r.job_id ? state.jobs.get(r.job_id) : undefined;
    if (!job || TERMINAL.has(job.state)) return false;
    if (r.kind === "job_approval") return job.state === "proposed";
    return (job.waiting_on ?? []).some((w) => w.entity_id === r.entity_id);
  }

  let running: Promise<void> | null = null;
  async function run(): Promise<void> {
    const base = deps.publicUrl();
    if (!deps.mailer || !base || deps.active?.() === false) return;
    const byPerson = new Map<string, Row[]>();
    for (const r of due.all(deps.clock.now() - afterMs)) {
      const state = deps.projector.tenant(r.tenant_id);
      const person = state?.entities.get(r.entity_id);
      if (!state || !person?.email_digest || person.status || !stillWaits(state, r)) {
        drop.run(r.tenant_id, r.entity_id, r.event_id);
        continue;
      }
      const k = `${r.tenant_id}\0${r.entity_id}`;
      byPerson.set(k, [...(byPerson.get(k) ?? []), r]);
    }
    for (const rows of byPerson.values()) {
      const { tenant_id, entity_id } = rows[0]!;
      const person = deps.projector.tenant(tenant_id)?.entities.get(entity_id);
      const to = person?.email?.vault_ref ? deps.addressOf(tenant_id, person.email.vault_ref) : undefined;
      if (!person || !to) {
        for (const r of rows) drop.run(r.tenant_id, r.entity_id, r.event_id);
        continue;
      }
      const msg = digestMessage({
        displayName: person.display_name,
        locale: person.locale ?? deps.defaultLocale,
        afterMinutes: deps.afterMinutes,
        lines: rows.map((r) => ({ kind: r.kind, title: r.title, body: r.body, url: `${base}${r.url}` })),
      });
      try {
        await deps.mailer.send({ to, ...msg });
        const at = deps.clock.iso();
        for (const r of rows) markSent.run(at, r.tenant_id, r.entity_id, r.event_id);
      } catch (err) {
        // Kept unsent: the next run tries again.
        deps.logger.warn({ err: (err as Error).message, tenant_id }, "digest email not sent");
      }
    }
  }

  let timer: { cancel(): void } | undefined;
  let closed = false;
  const arm = () => {
    if (closed || !deps.mailer) return;
    timer = deps.clock.setTimeout(() => {
      void digest.runDue().finally(arm);
    }, deps.tickMs ?? 60_000);
  };

  const digest: Digest = {
    afterMinutes: deps.afterMinutes,
    available: Boolean(deps.mailer),
    note(state, ev, told) {
      if (!deps.mailer) return;
      for (const { entity_id, notification: n } of told) {
        if (!WAITING_KINDS.has(n.kind) || !state.entities.get(entity_id)?.email_digest) continue;
        insert.run(
          state.tenant_id,
          entity_id,
          n.event_id,
          n.kind,
          n.conversation_id,
          n.job_id ?? null,
          ev.seq,
          n.title,
          n.body,
          n.url,
          deps.clock.now(),
        );
      }
    },
    runDue() {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    close() {
      closed = true;
      timer?.cancel();
    },
  };
  arm();
  return digest;
}
