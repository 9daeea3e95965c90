import { describe, expect, it } from "vitest";
import { ZUblEvent } from "../../contracts/events.js";
import { createFold, foldsEqual } from "../../src/ledger/fold.js";
import { fingerprint } from "../../src/ledger/fold-messages.js";
import { feed, happy, newEngine, registerEvent, scenario, T } from "./policy/helpers.js";

const J = "job_sched_4c1b";
const golden = () => {
  const fold = createFold();
  feed(newEngine(), fold, happy());
  return fold;
};

describe("the ledger fold", () => {
  it("knows the golden path's facts", () => {
    const fold = golden();
    expect(fold.jobState(T, J)).toBe("completed");
    expect(fold.jobConversation(T, J)).toBe("cnv_9f2a");
    expect(fold.job(T, J)).toEqual({
      state: "completed",
      conversation_id: "cnv_9f2a",
      owner_entity_id: "ent_agent_scheduler",
      title: "Schedule call with Maria",
      approved: true,
    });
    expect(fold.isMember(T, "cnv_9f2a", "ent_human_dan")).toBe(true);
    expect(fold.isMember(T, "cnv_9f2a", "ent_human_nobody")).toBe(false);
    expect(fold.isMember("tnt_other", "cnv_9f2a", "ent_human_dan")).toBe(false);
    expect(fold.entity(T, "ent_agent_scheduler")).toMatchObject({
      actor_type: "agent",
      display_name: "Office Scheduler",
      roles: [],
      allowed_tools: ["calendar.create_invite"],
    });
    expect(fold.entity(T, "ent_human_dan")?.roles).toEqual(["job_approver"]);
    expect(fold.entityCount(T)).toBe(2);
    expect(fold.hasConversation(T, "cnv_9f2a")).toBe(true);
    expect(fold.hasConversation(T, "cnv_workspace")).toBe(true);
    expect(fold.hasConversation(T, "cnv_nope")).toBe(false);
    expect(fold.hasEvent(T, "evt_0013")).toBe(true);
    expect(fold.hasEvent("tnt_other", "evt_0013")).toBe(false);
    expect(fold.toolCall(T, "tcall_001")).toMatchObject({
      job_id: J,
      tool_name: "calendar.create_invite",
      has_result: true,
      ts_ms: Date.parse("2025-12-27T10:15:24.000Z"),
    });
    expect(
      fold.hasToolIdempotencyKey(T, J, "calendar.create_invite", "idem:job_sched_4c1b:calendar.create_invite:v1"),
    ).toBe(true);
    expect(
      fold.hasToolIdempotencyKey(
        T,
        "job_other",
        "calendar.create_invite",
        "idem:job_sched_4c1b:calendar.create_invite:v1",
      ),
    ).toBe(false);
  });

  it("counts every registered entity as a member of the workspace conversation", () => {
    const fold = golden();
    expect(fold.isMember(T, "cnv_workspace", "ent_agent_scheduler")).toBe(true);
    fold.apply(
      ZUblEvent.parse(
        registerEvent("evt_reg_eve", { entity_id: "ent_human_eve", actor_type: "human", display_name: "Eve" }),
      ),
    );
    expect(fold.isMember(T, "cnv_workspace", "ent_human_eve")).toBe(true);
    expect(fold.isMember(T, "cnv_9f2a", "ent_human_eve")).toBe(false);
  });

  it("remembers offered cards and the union of their buttons over updates", () => {
    const fold = golden();
    const tracking = fold.card(T, "card_tracking_001");
    expect(tracking).toMatchObject({ job_id: J, conversation_id: "cnv_9f2a", messaged: true });
    expect(tracking?.buttons.get("btn_input_001")).toBe("job.provide_input");
    expect(tracking?.buttons.get("btn_cancel_001")).toBe("job.cancel");
    expect(fold.card(T, "card_formalize_001")?.buttons.get("btn_approve_001")).toBe("job.approve");
  });

  it("marks a card as offered only once a card message shows it", () => {
    const events = happy();
    const fold = createFold();
    feed(
      newEngine(),
      fold,
      events.slice(
        0,
        events.findIndex((e) => e.event_id === "evt_0004"),
      ),
    );
    expect(fold.card(T, "card_formalize_001")?.messaged).toBe(false);
    feed(newEngine(), fold, [events.find((e) => e.event_id === "evt_0004")!]);
    expect(fold.card(T, "card_formalize_001")?.messaged).toBe(true);
  });

  it("a fold rebuilt from the accepted events equals the live one", () => {
    for (const s of ["happy-path.json", "failure-retries-exhausted.json"]) {
      const events = scenario(s).events;
      const live = createFold();
      feed(newEngine(), live, events);
      const rebuilt = createFold();
      for (const e of events) rebuilt.apply(ZUblEvent.parse(e));
      expect(foldsEqual(live, rebuilt)).toBe(true);
      expect(rebuilt.snapshot()).toEqual(live.snapshot());
    }
  });

  describe("mark / rollbackTo / release", () => {
    const events = happy().map((e) => ZUblEvent.parse(e));
    const snap = (f: ReturnType<typeof createFold>) => JSON.stringify(f.snapshot());

    it("rolls back everything after a mark, including a tenant it created", () => {
      const fold = createFold();
      const empty = snap(fold);
      const m = fold.mark();
      for (const e of events) fold.apply(e);
      fold.rollbackTo(m);
      expect(snap(fold)).toBe(empty);
      expect(fold.snapshot()).toEqual({});
    });

    it("nests: a batch mark inside a commit mark", () => {
      const fold = createFold();
      for (const e of events.slice(0, 6)) fold.apply(e);
      const s0 = snap(fold);
      const commit = fold.mark();
      for (const e of events.slice(6, 9)) fold.apply(e);
      const s1 = snap(fold);
      const batch = fold.mark();
      for (const e of events.slice(9, 14)) fold.apply(e);
      fold.rollbackTo(batch); // the second batch is refused
      expect(snap(fold)).toBe(s1);
      for (const e of events.slice(9, 12)) fold.apply(e);
      fold.rollbackTo(commit); // then the commit fails
      expect(snap(fold)).toBe(s0);
    });

    it("release forgets undo information, and a released mark cannot be rolled back to", () => {
      const fold = createFold();
      const m = fold.mark();
      for (const e of events.slice(0, 5)) fold.apply(e);
      fold.release(m);
      const s = snap(fold);
      const m2 = fold.mark();
      fold.apply(events[5]!);
      fold.rollbackTo(m2);
      expect(snap(fold)).toBe(s);
      expect(() => fold.rollbackTo(m - 1)).toThrow(/released/);
    });

    it("release(fold.mark()) after a commit also works (the position is the current one)", () => {
      const fold = createFold();
      const m = fold.mark();
      for (const e of events.slice(0, 5)) fold.apply(e);
      fold.release(fold.mark());
      const s = snap(fold);
      const m2 = fold.mark();
      for (const e of events.slice(5, 8)) fold.apply(e);
      fold.rollbackTo(m2);
      expect(snap(fold)).toBe(s);
      expect(m2).toBeGreaterThanOrEqual(m);
    });

    it("re-registering an entity and rolling back restores the old one", () => {
      const fold = createFold();
      for (const e of events.slice(0, 3)) fold.apply(e);
      const m = fold.mark();
      fold.apply(
        ZUblEvent.parse(
          registerEvent("evt_re", {
            entity_id: "ent_human_dan",
            actor_type: "human",
            display_name: "Daniel",
            roles: ["admin"],
          }),
        ),
      );
      expect(fold.entity(T, "ent_human_dan")?.roles).toEqual(["admin"]);
      fold.rollbackTo(m);
      expect(fold.entity(T, "ent_human_dan")).toMatchObject({ display_name: "Dan", roles: ["job_approver"] });
    });

    it("keeps thousands of messages' facts, and undoes a send and a deletion", () => {
      const fold = createFold();
      const sent = (i: number, conv: string, actor: { entity_id: string; actor_type: string }) =>
        ({
          event_id: `evt_m${i}`,
          event_type: "message.sent",
          ts: new Date(Date.parse("2026-01-05T09:00:00.000Z") + i * 1000).toISOString(),
          tenant_id: T,
          trace_id: "trc_m",
          conversation_id: conv,
          actor,
          payload: { message_id: `msg_${i}`, kind: "text", body_text: `m ${i}` },
        }) as unknown as Parameters<typeof fold.apply>[0];
      const deleted = (i: number) =>
        ({
          event_id: `evt_d${i}`,
          event_type: "message.deleted",
          ts: "2026-01-06T09:00:00.000Z",
          tenant_id: T,
          trace_id: "trc_m",
          conversation_id: "cnv_a",
          actor: { entity_id: "ent_human_dan", actor_type: "human" },
          payload: { message_id: `msg_${i}` },
        }) as unknown as Parameters<typeof fold.apply>[0];
      // Past the first columns' capacity, so they grow with rows already in them.
      for (let i = 0; i < 3000; i++)
        fold.apply(
          sent(
            i,
            i % 2 ? "cnv_a" : "cnv_b",
            i % 3
              ? { entity_id: "ent_human_dan", actor_type: "human" }
              : { entity_id: "ent_agent_x", actor_type: "agent" },
          ),
        );
      fold.apply(deleted(7));
      const facts = (i: number) => ({
        conversation_id: i % 2 ? "cnv_a" : "cnv_b",
        author_entity_id: i % 3 ? "ent_human_dan" : "ent_agent_x",
        ts_ms: Date.parse("2026-01-05T09:00:00.000Z") + i * 1000,
        deleted: i === 7,
      });
      for (const i of [0, 1, 7, 1023, 1024, 2047, 2999]) expect(fold.message(T, `msg_${i}`)).toEqual(facts(i));
      expect(fold.message(T, "msg_3000")).toBeUndefined();

      const m = fold.mark();
      fold.apply(sent(3000, "cnv_a", { entity_id: "ent_human_dan", actor_type: "human" }));
      fold.apply(deleted(9));
      fold.apply(deleted(7)); // already deleted: nothing to undo
      expect(fold.message(T, "msg_3000")).toMatchObject({ conversation_id: "cnv_a", deleted: false });
      expect(fold.message(T, "msg_9")?.deleted).toBe(true);
      fold.rollbackTo(m);
      expect(fold.message(T, "msg_3000")).toBeUndefined();
      expect(fold.message(T, "msg_9")).toEqual(facts(9));
      expect(fold.message(T, "msg_7")).toEqual(facts(7));
      // Sent again after the undo: a new row with the new facts.
      fold.apply(sent(3000, "cnv_b", { entity_id: "ent_agent_x", actor_type: "agent" }));
      expect(fold.message(T, "msg_3000")).toMatchObject({ conversation_id: "cnv_b", author_entity_id: "ent_agent_x" });
    });

    it("with messageIdAt, finds messages by fingerprint and tells apart ids that share one", () => {
      // Two message ids with the same 30-bit fingerprint (a birthday search: ≈ 40,000 tries).
      const seenPrints = new Map<number, string>();
      let pair: [string, string] | undefined;
      for (let i = 0; !pair; i++) {
        const id = `msg_${i}`;
        const other = seenPrints.get(fingerprint(id));
        if (other) pair = [other, id];
        else seenPrints.set(fingerprint(id), id);
      }
      const [first, twin] = pair;
      // The log as the fold sees it: the tenant's message ids by tenant seq.
      const log = new Map<number, string>();
      let asked = 0;
      const fold = createFold({
        messageIdAt: (t, seq) => {
          asked++;
          return t === T ? log.get(seq) : undefined;
        },
      });
      type Event = Parameters<typeof fold.apply>[0];
      let seq = 0;
      const kept: Event[] = [];
      const apply = (e: Event) => {
        kept.push(e);
        fold.apply(e);
      };
      const undo = (mark: number) => {
        fold.rollbackTo(mark);
        kept.pop();
        log.delete(seq--);
      };
      const send = (messageId: string, conversation = "cnv_a") => {
        log.set(++seq, messageId);
        apply({
          event_id: `evt_${seq}`,
          event_type: "message.sent",
          ts: new Date(Date.parse("2026-01-05T09:00:00.000Z") + seq * 1000).toISOString(),
          tenant_id: T,
          trace_id: "trc_p",
          conversation_id: conversation,
          actor: { entity_id: "ent_human_dan", actor_type: "human" },
          payload: { message_id: messageId, kind: "text", body_text: "hi" },
        } as unknown as Event);
      };
      for (let i = 0; i < 2000; i++) send(`msg_held_${i}`);
      asked = 0;
      for (let i = 0; i < 2000; i += 97) expect(fold.message(T, `msg_held_${i}`)?.ts_ms).toBeGreaterThan(0);
      for (let i = 0; i < 2000; i++) expect(fold.message(T, `msg_new_${i}`)).toBeUndefined();
      // One question per id found, and only chance matches for the ids not held.
      expect(asked).toBeLessThan(25 + 5);

      send(first, "cnv_first");
      send(twin, "cnv_twin");
      send(first, "cnv_again"); // the same id again: the first send's facts stay
      expect(fold.message(T, first)?.conversation_id).toBe("cnv_first");
      expect(fold.message(T, twin)?.conversation_id).toBe("cnv_twin");
      expect(Object.keys((fold.snapshot()[T] as { messages: object }).messages)).toHaveLength(2002);

      // Undone in a rollback, then sent again: found with the new facts, the twin untouched.
      const m = fold.mark();
      send("msg_rolled_back");
      undo(m);
      expect(fold.message(T, "msg_rolled_back")).toBeUndefined();
      const m2 = fold.mark();
      log.set(++seq, "");
      apply({
        event_id: `evt_d${seq}`,
        event_type: "message.deleted",
        ts: "2026-01-06T09:00:00.000Z",
        tenant_id: T,
        trace_id: "trc_p",
        conversation_id: "cnv_first",
        actor: { entity_id: "ent_human_dan", actor_type: "human" },
        payload: { message_id: first },
      } as unknown as Event);
      expect(fold.message(T, first)?.deleted).toBe(true);
      expect(fold.message(T, twin)?.deleted).toBe(false);
      undo(m2);
      expect(fold.message(T, first)?.deleted).toBe(false);
      send("msg_rolled_back", "cnv_later");
      expect(fold.message(T, "msg_rolled_back")?.conversation_id).toBe("cnv_later");

      // The same messages as a fold that keeps the ids themselves and is given the same events.
      const plain = createFold();
      for (const e of kept) plain.apply(e);
      expect((fold.snapshot()[T] as { messages: object }).messages).toEqual(
        (plain.snapshot()[T] as { messages: object }).messages,
      );
    });

    it("with knownEvent, keeps fingerprints of event ids and asks the log only on a match", () => {
      const log = new Set<string>();
      let asked = 0;
      const fold = createFold({
        knownEvent: (t, id) => {
          asked++;
          return log.has(`${t} ${id}`);
        },
      });
      const event = (id: string) =>
        ({
          event_id: id,
          event_type: "message.reacted",
          ts: "2026-01-05T09:00:00.000Z",
          tenant_id: T,
          trace_id: "trc_k",
          conversation_id: "cnv_a",
          actor: { entity_id: "ent_human_dan", actor_type: "human" },
          payload: {},
        }) as unknown as Parameters<typeof fold.apply>[0];
      for (let i = 0; i < 50_000; i++) {
        log.add(`${T} evt_held_${i}`);
        fold.apply(event(`evt_held_${i}`));
      }
      for (let i = 0; i < 50_000; i += 997) expect(fold.hasEvent(T, `evt_held_${i}`)).toBe(true);
      asked = 0;
      let found = 0;
      for (let i = 0; i < 50_000; i++) if (fold.hasEvent(T, `evt_new_${i}`)) found++;
      expect(found).toBe(0);
      // Fingerprints of 30 bits: about 50,000 × 50,000 / 2^30 ≈ 2 chance matches, never dozens.
      expect(asked).toBeLessThan(30);
      expect(fold.hasEvent("tnt_other", "evt_held_1")).toBe(false);

      // A rolled-back event leaves its fingerprint, and the log (which rolled back too) says no.
      const m = fold.mark();
      fold.apply(event("evt_rolled_back"));
      fold.rollbackTo(m);
      asked = 0;
      expect(fold.hasEvent(T, "evt_rolled_back")).toBe(false);
      expect(asked).toBe(1);
    });
  });
});
