import { afterEach, describe, expect, it } from "vitest";
import { createAnswerMarker, createInbox, createSqliteInboxStore, type InboxHandlers } from "../../src/office/inbox.js";
import { migrateOffice } from "../../src/office/migrate.js";
import { createVault } from "../../src/office/vault/vault.js";
import { systemClock } from "../../src/shared/clock.js";
import { openDatabase } from "../../src/shared/db.js";
import { defaultIds } from "../../src/shared/ids.js";
import { AppError } from "../../src/shared/errors.js";
import { tempDir } from "../ledger/helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function setup(handlers: Partial<InboxHandlers>) {
  const dir = tempDir("inbox-");
  const db = openDatabase({ path: `${dir.dir}/logline.sqlite` });
  cleanups.push(() => (db.close(), dir.cleanup()));
  migrateOffice(db);
  const vault = createVault({ db, dataDir: dir.dir, clock: systemClock, ids: defaultIds });
  const errors: string[] = [];
  const none = () => Promise.resolve();
  const inbox = createInbox({
    store: createSqliteInboxStore(db),
    vault,
    clock: systemClock,
    marker: createAnswerMarker(db),
    handlers: { message: none, job_action: none, suggestion: none, hand_over: none, ...handlers },
    onError: (_e, where) => void errors.push(where),
    retryMs: [20, 20, 20, 20],
  });
  const rows = () =>
    db.prepare("SELECT event_id, attempts, last_error FROM office_inbox").all() as Array<{
      event_id: string;
      attempts: number;
      last_error: string | null;
    }>;
  return { db, inbox, rows, errors };
}

const message = (n: number) => ({
  kind: "message" as const,
  request: {
    tenant_id: "tnt_1",
    trace_id: "trc_1",
    conversation_id: "cnv_1",
    actor_entity_id: "ent_1",
    kind: "text" as const,
    body_text: `hello ${n}`,
    message_event_id: `evt_${n}`,
  },
});
const until = async (cond: () => boolean) => {
  const end = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("inbox retries", () => {
  it("a full disk keeps the work and retries it, past the attempt cap, until it is answered", async () => {
    let calls = 0;
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    const t = setup({ message: async () => (++calls <= 7 ? Promise.reject(full) : undefined) });
    t.inbox.start();
    t.inbox.accept(message(1));
    await until(() => calls === 8);
    await t.inbox.idle();
    expect(t.rows()).toEqual([]);
    expect(t.errors.filter((w) => w === "inbox.retry")).toHaveLength(7);
    expect(t.errors).not.toContain("inbox.gave_up");
  });

  it("an unexpected error is retried, recorded on the row, and given up after five attempts", async () => {
    let calls = 0;
    const boom = setup({
      message: async () => {
        calls++;
        throw new Error("boom");
      },
    });
    boom.inbox.start();
    boom.inbox.accept(message(2));
    await until(() => boom.rows().length === 1 && boom.rows()[0]!.attempts === 1);
    expect(boom.rows()[0]!.last_error).toBe("boom");
    await until(() => boom.rows().length === 0);
    expect(calls).toBe(5);
    expect(boom.errors.at(-1)).toBe("inbox.gave_up");
  });

  it("a refusal (4xx) ends the work at once; a second accept of the same event is ignored", async () => {
    let calls = 0;
    const t = setup({
      message: async () => {
        calls++;
        throw new AppError("ILLEGAL_JOB_TRANSITION", "no longer possible");
      },
    });
    t.inbox.start();
    t.inbox.accept(message(3));
    t.inbox.accept(message(3));
    await t.inbox.idle();
    expect(calls).toBe(1);
    expect(t.rows()).toEqual([]);
  });

  it("messages of one conversation are answered one at a time, in the order accepted", async () => {
    const seen: string[] = [];
    let active = 0;
    let most = 0;
    const t = setup({
      message: async (req) => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 5));
        seen.push(req.body_text);
        active--;
      },
    });
    t.inbox.start();
    for (let n = 0; n < 5; n++) t.inbox.accept(message(10 + n));
    await t.inbox.idle();
    expect(seen).toEqual(["hello 10", "hello 11", "hello 12", "hello 13", "hello 14"]);
    expect(most).toBe(1);
  });

  it("a row sealed under another key is dropped with an error, not retried forever", async () => {
    const t = setup({});
    t.db
      .prepare(
        "INSERT INTO office_inbox (tenant_id, event_id, kind, conversation_id, request, accepted_at) VALUES ('tnt_1', 'evt_x', 'message', 'cnv_1', 'AAAA.BBBB.CCCC', '2026-01-01T00:00:00Z')",
      )
      .run();
    t.inbox.start();
    await t.inbox.idle();
    expect(t.rows()).toEqual([]);
    expect(t.errors).toContain("inbox.unseal");
  });
});
