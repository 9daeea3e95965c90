import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../src/shared/db.js";
import { newId } from "../../src/shared/ids.js";
import { createSqliteLedger, type CreateLedgerDeps } from "../../src/ledger/ledger.js";
import type { LedgerApi } from "../../src/ledger/ledger-api.js";

export function tempDir(prefix = "ledger-test-"): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestLedger {
  ledger: LedgerApi;
  db: Db;
  dir: string;
  dbPath: string;
  /** Closes the ledger and its database (keeps the files). */
  close(): void;
  /** Reopens the same files as a fresh process would. */
  reopen(extra?: Partial<CreateLedgerDeps>): TestLedger;
  cleanup(): void;
}

/** A ledger on a real SQLite file in a fresh temp dir. */
export function openTestLedger(extra: Partial<CreateLedgerDeps> = {}, existingDir?: string): TestLedger {
  const { dir, cleanup } = existingDir
    ? { dir: existingDir, cleanup: () => rmSync(existingDir, { recursive: true, force: true }) }
    : tempDir();
  const dbPath = join(dir, "logline.sqlite");
  const db = openDatabase({ path: dbPath });
  const ledger = createSqliteLedger({ db, dataDir: dir, ...extra });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    ledger.close();
    db.close();
  };
  return {
    ledger,
    db,
    dir,
    dbPath,
    close,
    reopen: (more = {}) => (close(), openTestLedger(more, dir)),
    cleanup: () => (close(), cleanup()),
  };
}

const T0 = Date.parse("2026-01-05T09:00:00.000Z");
let tick = 0;
/** Strictly increasing timestamps, so time-ordering rules never trip in storage tests. */
function nextTs(): string {
  return new Date(T0 + tick++ * 1000).toISOString();
}

const HUMAN = { entity_id: "ent_alice", actor_type: "human" as const };
const CONV = "cnv_general";

function base(tenant: string, type: string, extra: Record<string, unknown> = {}) {
  return {
    event_id: newId("evt"),
    ts: nextTs(),
    tenant_id: tenant,
    trace_id: newId("trc"),
    conversation_id: CONV,
    actor: HUMAN,
    event_type: type,
    ...extra,
  };
}

export function entityRegistered(tenant: string, entityId = HUMAN.entity_id, actorType: "human" | "agent" = "human") {
  return base(tenant, "entity.registered", {
    conversation_id: "cnv_workspace",
    actor: { entity_id: "system", actor_type: "system" },
    payload: { entity_id: entityId, actor_type: actorType, display_name: entityId, roles: ["member", "job_approver"] },
  });
}

export function conversationCreated(tenant: string, conversationId = CONV, members = [HUMAN.entity_id]) {
  return base(tenant, "conversation.created", {
    conversation_id: conversationId,
    payload: {
      conversation_id: conversationId,
      title: "General",
      participants: members.map((entity_id) => ({ entity_id })),
    },
  });
}

/** A chat message; `size` pads body_text (letters only, so no PII pattern matches). */
export function messageSent(
  tenant: string,
  text = "hello team",
  opts: { size?: number; conversationId?: string } = {},
) {
  const body = opts.size
    ? `${text} ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(opts.size / 27))}`.slice(0, opts.size)
    : text;
  return base(tenant, "message.sent", {
    conversation_id: opts.conversationId ?? CONV,
    payload: { message_id: newId("msg"), kind: "text", body_text: body },
  });
}

/** The events a tenant needs before people can talk in CONV. */
export function setupTenant(tenant: string) {
  return [entityRegistered(tenant), conversationCreated(tenant)];
}
