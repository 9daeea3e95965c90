import { describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { createProjector } from "../../src/gateway/projections/projector.js";

const T0 = Date.parse("2025-12-27T10:00:00.000Z");
let seq = 0;
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
function ev(type: string, min: number, actor: [string, string], payload: object, extra: object = {}): TStoredEvent {
  return {
    event_id: `evt_${++seq}`,
    event_type: type,
    ts: at(min),
    tenant_id: "tnt_p",
    trace_id: "trc",
    conversation_id: "cnv_1",
    actor: { entity_id: actor[0], actor_type: actor[1] },
    payload,
    seq,
    ...extra,
  } as unknown as TStoredEvent;
}
const DAN: [string, string] = ["ent_dan", "human"];
const AGENT: [string, string] = ["ent_agent", "agent"];
const card = (type: string, state: string, extra: object = {}) => ({
  card_id: `card_${type}_${state}`,
  job_id: "job_1",
  card_type: type,
  state,
  title: "Schedule call",
  buttons: [],
  conversation_id: "cnv_1",
  tenant_id: "tnt_p",
  ...extra,
});

function world() {
  seq = 0;
  const p = createProjector();
  const out: any[] = [];
  const apply = (e: TStoredEvent) =>
    out.push(
      ...p
        .apply(e)
        .filter((d) => d.event === "presence.update")
        .map((d) => d.data),
    );
  apply(
    ev("entity.registered", 0, DAN, {
      entity_id: "ent_dan",
      actor_type: "human",
      display_name: "Dan",
      roles: ["job_approver"],
    }),
  );
  apply(
    ev("entity.registered", 0, DAN, {
      entity_id: "ent_agent",
      actor_type: "agent",
      display_name: "Scheduler",
      roles: [],
    }),
  );
  apply(
    ev("conversation.created", 0, DAN, {
      conversation_id: "cnv_1",
      title: "x",
      participants: [{ entity_id: "ent_dan" }, { entity_id: "ent_agent" }],
    }),
  );
  const state = p.tenant("tnt_p")!;
  const tick = (min: number) => out.push(...p.tick(state, T0 + min * 60_000).map((d) => d.data));
  return { p, out, apply, tick, state };
}
const last = (out: any[], id: string) => [...out].reverse().find((d) => d.entity_id === id)?.presence;

describe("presence derivation (seed rules)", () => {
  it("proposed counts as available; in_progress with evidence is working; stale degrades to available at exactly evidence + 3 min", () => {
    const w = world();
    w.apply(
      ev(
        "job.created",
        1,
        AGENT,
        { job_id: "job_1", title: "Schedule call", conversation_id: "cnv_1", owner_entity_id: "ent_agent" },
        { job_id: "job_1" },
      ),
    );
    w.apply(
      ev(
        "job.proposed",
        1,
        AGENT,
        {
          job_id: "job_1",
          proposed_card: card("job.formalize", "proposed", { owner: { entity_id: "ent_agent" }, job: { goal: "g" } }),
        },
        { job_id: "job_1" },
      ),
    );
    expect(last(w.out, "ent_agent")).toMatchObject({ state: "available", detail: "Has proposals" });
    w.apply(
      ev(
        "job.state_changed",
        2,
        AGENT,
        { job_id: "job_1", prev_state: "proposed", next_state: "in_progress" },
        { job_id: "job_1" },
      ),
    );
    expect(last(w.out, "ent_agent")).toMatchObject({
      state: "working",
      job_id: "job_1",
      job_title: "Schedule call",
      detail: "Working on Schedule call",
      since: at(2),
    });
    w.tick(4.9);
    expect(last(w.out, "ent_agent").state).toBe("working");
    w.tick(5.5);
    expect(last(w.out, "ent_agent")).toMatchObject({ state: "available", detail: "Paused", since: at(5) });
  });

  it("waiting_on_you for the humans in waiting_on, overriding everything but offline", () => {
    const w = world();
    w.apply(
      ev(
        "job.created",
        1,
        AGENT,
        { job_id: "job_1", title: "Schedule call", conversation_id: "cnv_1", owner_entity_id: "ent_agent" },
        { job_id: "job_1" },
      ),
    );
    w.apply(
      ev(
        "job.state_changed",
        2,
        AGENT,
        {
          job_id: "job_1",
          prev_state: "in_progress",
          next_state: "waiting_input",
          reason_code: "missing_required_inputs",
        },
        { job_id: "job_1" },
      ),
    );
    w.apply(
      ev(
        "job.progress",
        2,
        AGENT,
        {
          job_id: "job_1",
          tracking_card: card("job.tracking", "waiting_input", {
            progress: { status_line: "x", waiting_on: [{ entity_id: "ent_dan", display_name: "Dan" }] },
          }),
        },
        { job_id: "job_1" },
      ),
    );
    expect(last(w.out, "ent_dan")).toMatchObject({
      state: "waiting_on_you",
      job_id: "job_1",
      detail: "Needs your input",
    });
    w.apply(
      ev(
        "job.state_changed",
        3,
        AGENT,
        { job_id: "job_1", prev_state: "waiting_input", next_state: "in_progress", reason_code: "inputs_received" },
        { job_id: "job_1" },
      ),
    );
    expect(last(w.out, "ent_dan").state).toBe("available");
  });

  it("keeps agents available however long they are idle; people go offline after 30 min without activity, with since at the expiry", () => {
    const w = world();
    w.tick(4);
    expect(last(w.out, "ent_agent").state).toBe("available");
    w.tick(29);
    expect(last(w.out, "ent_dan").state).toBe("available");
    w.tick(45);
    expect(last(w.out, "ent_dan")).toMatchObject({ state: "offline", since: at(30) });
    w.tick(600);
    expect(w.state.presence.get("ent_agent")?.state).toBe("available");
    // activity brings them back at the event's time
    w.apply(ev("message.sent", 50, DAN, { message_id: "m", kind: "text", body_text: "back" }));
    expect(last(w.out, "ent_dan")).toMatchObject({ state: "available", since: at(50) });
  });

  it("reaches the same presence whether the TTL was noticed by the timer or only at the next event (boot replay)", () => {
    const live = world();
    live.tick(40);
    live.apply(ev("message.sent", 50, DAN, { message_id: "m", kind: "text", body_text: "back" }));
    const replay = world();
    replay.apply(ev("message.sent", 50, DAN, { message_id: "m", kind: "text", body_text: "back" }));
    expect(replay.state.presence.get("ent_dan")).toEqual(live.state.presence.get("ent_dan"));
    replay.tick(50);
    live.tick(50);
    expect([...replay.state.presence.values()]).toEqual([...live.state.presence.values()]);
  });
});
