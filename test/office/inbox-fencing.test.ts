import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { TAppendResponse } from "../../contracts/ledger.js";
import { createEmitter, type Draft, type Emitter } from "../../src/office/emitter.js";
import { createAnswerMarker } from "../../src/office/inbox.js";
import { migrateOffice } from "../../src/office/migrate.js";
import { acceptPgInboxRow, createPgAnswerMarker, migratePgOffice } from "../../src/office/pg/inbox-pg.js";
import { createManualClock } from "../../src/shared/clock.js";
import type { Db } from "../../src/shared/db.js";
import { newId } from "../../src/shared/ids.js";
import { openTestLedger, setupTenant } from "../ledger/helpers.js";
import { openPgLedger, stopSharedPostgres } from "../ledger/pg/pg-helpers.js";

/**
 * Fencing of Office's answers, one contract on SQLite and PostgreSQL: the first commit answering
 * an inbox item deletes its row through the append's transaction and is refused when no row went,
 * so an answerer that lost the item (another one answered it) writes nothing for it, now or
 * later. The real ledgers, the default policy pack, Office's emitter and answer marker.
 */

const T = "tnt_fence";
const CONV = "cnv_general";
const ALICE = { entity_id: "ent_alice", actor_type: "human" as const };

interface Opened {
  emitter: Emitter<unknown>;
  marker: { run<R>(item: { tenantId: string; eventId: string }, fn: () => Promise<R>): Promise<R> };
  /** A person's message accepted for Office: the event and its inbox row, in one append. */
  acceptMessage(text: string): Promise<string>;
  /** Deletes a row as another answerer's commit would. */
  removeRow(eventId: string): Promise<void>;
  rows(): Promise<string[]>;
  said(): Promise<string[]>;
  headSeq(): number;
  close(): Promise<void>;
}

type Ledgerish = {
  append(
    req: { tenant_id: string; events: unknown[] },
    opts?: { withinCommit?: (r: TAppendResponse, tx: never) => void | Promise<void> },
  ): Promise<TAppendResponse>;
  query(req: { tenant_id: string; limit: number }): unknown;
};

const clock = createManualClock(Date.parse("2026-02-03T09:00:00.000Z"));
const ids = (prefix: string) => newId(prefix, clock.now());

function message(text: string) {
  return {
    event_id: newId("evt"),
    event_type: "message.sent",
    ts: clock.iso(),
    tenant_id: T,
    trace_id: newId("trc"),
    conversation_id: CONV,
    actor: ALICE,
    payload: { message_id: newId("msg"), kind: "text", body_text: text },
  };
}

async function saidOn(ledger: Ledgerish): Promise<string[]> {
  const page = (await ledger.query({ tenant_id: T, limit: 1000 })) as {
    events: Array<{ event_type: string; payload: { body_text?: string } }>;
  };
  return page.events.filter((e) => e.event_type === "message.sent").map((e) => e.payload.body_text ?? "");
}

const sqlite = {
  name: "SQLite",
  async open(): Promise<Opened> {
    const t = openTestLedger();
    migrateOffice(t.db);
    await t.ledger.append({ tenant_id: T, events: setupTenant(T) });
    const insert = (tx: Db, eventId: string) =>
      tx
        .prepare(
          "INSERT INTO office_inbox (tenant_id, event_id, kind, conversation_id, request, accepted_at) VALUES (?, ?, 'message', ?, 'sealed', ?)",
        )
        .run(T, eventId, CONV, clock.iso());
    const marker = createAnswerMarker(t.db);
    return {
      emitter: createEmitter({ ledger: t.ledger, clock, ids, answering: marker }) as Emitter<unknown>,
      marker,
      async acceptMessage(text) {
        const ev = message(text);
        await t.ledger.append(
          { tenant_id: T, events: [ev] },
          { withinCommit: (_, tx) => void insert(tx, ev.event_id) },
        );
        return ev.event_id;
      },
      async removeRow(eventId) {
        t.db.prepare("DELETE FROM office_inbox WHERE event_id = ?").run(eventId);
      },
      rows: async () => t.db.prepare("SELECT event_id FROM office_inbox ORDER BY id").pluck().all() as string[],
      said: () => saidOn(t.ledger as unknown as Ledgerish),
      headSeq: () => t.ledger.head(T).tenant_seq,
      async close() {
        t.cleanup();
      },
    };
  },
};

const postgres = {
  name: "PostgreSQL",
  async open(): Promise<Opened> {
    const t = await openPgLedger();
    await migratePgOffice(t.owner);
    await t.owner.query("GRANT logline_office_writer TO logline_app");
    await t.ledger.append({ tenant_id: T, events: setupTenant(T) });
    const marker = createPgAnswerMarker();
    return {
      emitter: createEmitter({ ledger: t.ledger, clock, ids, answering: marker }) as Emitter<unknown>,
      marker,
      async acceptMessage(text) {
        const ev = message(text);
        const row = { tenantId: T, eventId: ev.event_id, kind: "message", conversationId: CONV };
        await t.ledger.append(
          { tenant_id: T, events: [ev] },
          { withinCommit: (_, tx) => acceptPgInboxRow(tx, { ...row, request: "sealed", acceptedAt: clock.iso() }) },
        );
        return ev.event_id;
      },
      async removeRow(eventId) {
        await t.owner.query("DELETE FROM office.inbox WHERE event_id = $1", [eventId]);
      },
      async rows() {
        const { rows } = await t.owner.query<{ event_id: string }>("SELECT event_id FROM office.inbox ORDER BY id");
        return rows.map((r) => r.event_id);
      },
      said: () => saidOn(t.ledger as unknown as Ledgerish),
      headSeq: () => t.ledger.head(T).tenant_seq,
      close: () => t.cleanup(),
    };
  },
};

afterAll(stopSharedPostgres);

const ec = { tenant_id: T, trace_id: "trc_fencing", conversation_id: CONV };
const say = (text: string): Draft => ({
  event_type: "message.sent",
  actor: ALICE,
  payload: { message_id: newId("msg"), kind: "text", body_text: text },
});

describe.each([sqlite, postgres])("answering an inbox item on $name", (backend) => {
  let w: Opened | undefined;
  const open = async () => (w = await backend.open());
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it("deletes the row with the first answer and lets later answers of the same item commit", async () => {
    const w = await open();
    const item = await w.acceptMessage("can you book a room?");
    expect(await w.rows()).toEqual([item]);
    await w.marker.run({ tenantId: T, eventId: item }, async () => {
      await w.emitter.emit(ec, [say("first part")]);
      expect(await w.rows()).toEqual([]);
      await w.emitter.emit(ec, [say("second part")]);
    });
    expect(await w.said()).toEqual(["can you book a room?", "first part", "second part"]);
  });

  it("commits two answers of one item written together, the row deleted once", async () => {
    const w = await open();
    const item = await w.acceptMessage("two answers");
    await w.marker.run({ tenantId: T, eventId: item }, () =>
      Promise.all([w.emitter.emit(ec, [say("one")]), w.emitter.emit(ec, [say("two")])]),
    );
    expect((await w.said()).slice(1).sort()).toEqual(["one", "two"]);
    expect(await w.rows()).toEqual([]);
  });

  it("commits nothing when the row was removed behind the answerer's back, then or later", async () => {
    const w = await open();
    const item = await w.acceptMessage("answered elsewhere");
    const other = await w.acceptMessage("still waiting");
    const before = w.headSeq();
    await w.marker.run({ tenantId: T, eventId: item }, async () => {
      // Another answerer took the item and answered it while this one was thinking.
      await w.removeRow(item);
      await expect(w.emitter.emit(ec, [say("a second answer")])).rejects.toMatchObject({
        code: "CONFLICT",
        details: { fenced: true, event_id: item },
      });
      await expect(w.emitter.emit(ec, [say("and a third")])).rejects.toMatchObject({ details: { fenced: true } });
    });
    expect(await w.said()).toEqual(["answered elsewhere", "still waiting"]);
    expect(w.headSeq()).toBe(before);
    // The rolled-back batch took no other row with it.
    expect(await w.rows()).toEqual([other]);
  });

  it("answers again after a refused batch: the row stays until an answer commits", async () => {
    const w = await open();
    const item = await w.acceptMessage("please retry");
    await w.marker.run({ tenantId: T, eventId: item }, async () => {
      // Someone who is no member of the conversation: the policy pack refuses the batch, and the delete rolls back.
      const stranger = { ...say("wrong"), actor: { entity_id: "ent_stranger", actor_type: "human" as const } };
      await expect(w.emitter.emit(ec, [stranger])).rejects.toMatchObject({ code: expect.any(String) });
      expect(await w.rows()).toEqual([item]);
      await w.emitter.emit(ec, [say("right")]);
    });
    expect(await w.rows()).toEqual([]);
    expect(await w.said()).toEqual(["please retry", "right"]);
  });
});
