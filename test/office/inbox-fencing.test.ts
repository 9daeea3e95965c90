import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmitter, type Draft } from "../../src/office/emitter.js";
import { createAnswerMarker } from "../../src/office/inbox.js";
import { AGENT, CONV, DAN, setupWorld, T, type World } from "./helpers.js";

/**
 * Fencing of Office's answers: the first commit answering an inbox item deletes its row and is
 * refused when no row went, so an answerer that lost the item (another one answered it) writes
 * nothing for it, now or later. Real SQLite, the real ledger and policy pack.
 */

let w: World;
beforeEach(async () => {
  w = await setupWorld();
});
afterEach(() => w.cleanup());

const ec = { tenant_id: T, trace_id: "trc_fencing", conversation_id: CONV };
const say = (text: string): Draft => ({
  event_type: "message.sent",
  actor: { entity_id: AGENT, actor_type: "agent" },
  payload: { message_id: `msg_${text.replace(/\W/g, "")}`, kind: "text", body_text: text },
});

function accept(eventId: string): void {
  w.db
    .prepare(
      "INSERT INTO office_inbox (tenant_id, event_id, kind, conversation_id, request, accepted_at) VALUES (?, ?, 'message', ?, 'sealed', ?)",
    )
    .run(T, eventId, CONV, w.clock.iso());
}
const rows = () => w.db.prepare("SELECT event_id FROM office_inbox").pluck().all();
const said = () =>
  w
    .events()
    .filter((e) => e.event_type === "message.sent" && e.actor.entity_id === AGENT)
    .map((e) => (e.payload as { body_text: string }).body_text);

function answerer() {
  const marker = createAnswerMarker(w.db);
  const emitter = createEmitter({ ledger: w.ledger, clock: w.clock, ids: w.ids, answering: marker });
  return { marker, emitter };
}

describe("answering an inbox item", () => {
  it("deletes the row with the first answer and lets later answers of the same item commit", async () => {
    accept("evt_msg_one");
    const { marker, emitter } = answerer();
    await marker.run({ tenantId: T, eventId: "evt_msg_one" }, async () => {
      await emitter.emit(ec, [say("first part")]);
      expect(rows()).toEqual([]);
      await emitter.emit(ec, [say("second part")]);
    });
    expect(said()).toEqual(["first part", "second part"]);
  });

  it("commits two answers of one item written in the same group commit, the row deleted once", async () => {
    accept("evt_msg_two");
    const { marker, emitter } = answerer();
    await marker.run({ tenantId: T, eventId: "evt_msg_two" }, () =>
      Promise.all([emitter.emit(ec, [say("one")]), emitter.emit(ec, [say("two")])]),
    );
    expect(said().sort()).toEqual(["one", "two"]);
    expect(rows()).toEqual([]);
  });

  it("commits nothing when the row was removed behind the answerer's back, then or later", async () => {
    accept("evt_msg_gone");
    accept("evt_msg_other");
    const { marker, emitter } = answerer();
    const before = w.ledger.head(T).tenant_seq;
    await marker.run({ tenantId: T, eventId: "evt_msg_gone" }, async () => {
      // Another answerer took the item and answered it while this one was thinking.
      w.db.prepare("DELETE FROM office_inbox WHERE event_id = 'evt_msg_gone'").run();
      await expect(emitter.emit(ec, [say("a second answer")])).rejects.toMatchObject({
        code: "CONFLICT",
        details: { fenced: true, event_id: "evt_msg_gone" },
      });
      await expect(emitter.emit(ec, [say("and a third")])).rejects.toMatchObject({ details: { fenced: true } });
    });
    expect(said()).toEqual([]);
    expect(w.ledger.head(T).tenant_seq).toBe(before);
    // The rolled-back batch took no other row with it.
    expect(rows()).toEqual(["evt_msg_other"]);
  });

  it("answers again after a refused batch: the row stays until an answer commits", async () => {
    accept("evt_msg_retry");
    const { marker, emitter } = answerer();
    await marker.run({ tenantId: T, eventId: "evt_msg_retry" }, async () => {
      // A person's event Office may not write: the policy pack refuses the batch, so the delete rolls back.
      await expect(
        emitter.emit(ec, [{ ...say("wrong"), actor: { entity_id: DAN, actor_type: "human" }, job_id: "job_none" }]),
      ).rejects.toMatchObject({ code: expect.any(String) });
      expect(rows()).toEqual(["evt_msg_retry"]);
      await emitter.emit(ec, [say("right")]);
    });
    expect(rows()).toEqual([]);
    expect(said()).toEqual(["right"]);
  });
});
