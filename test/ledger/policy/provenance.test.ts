import { describe, expect, it } from "vitest";
import { at, after, expectPasses, expectRefused, feed, happy, renamed, scenario, DAN, type Raw } from "./helpers.js";

/** "No fake buttons": forged clicks are refused with INVALID_PROVENANCE. */
const J = "job_sched_4c1b";
const click = (card_id: string, button_id: string, type: string, job_id = J) => ({
  card_id,
  button_id,
  action: { type, job_id },
});
const P = "policy.card_provenance";

describe("card provenance", () => {
  it("refuses a click on a card the ledger never saw", () => {
    const { engine, fold, event } = at("evt_0005");
    Object.assign(event.payload, click("card_invented_001", "btn_approve_001", "job.approve"));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses a button that is not on the card", () => {
    const { engine, fold, event } = at("evt_0005");
    Object.assign(event.payload, click("card_formalize_001", "btn_approve_999", "job.approve"));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses an action type that does not match the button", () => {
    const { engine, fold, event } = at("evt_0005");
    // The Ask-in-chat button claimed as an approval.
    Object.assign(event.payload, click("card_formalize_001", "btn_askchat_001", "job.approve"));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses a real button of the wrong kind for the event (Reject → job.approved)", () => {
    const { engine, fold, event } = at("evt_0005");
    Object.assign(event.payload, click("card_formalize_001", "btn_reject_001", "job.reject"));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses a button from another job's card", () => {
    // A second job in the same conversation, proposed and offered; its Approve button replayed on the first job.
    const { engine, fold, event } = at("evt_0005");
    const other = "job_other_77";
    const retarget = (e: Raw, id: string) => {
      const s = JSON.stringify(e).replaceAll(J, other).replaceAll("card_formalize_001", "card_formalize_077");
      return { ...JSON.parse(s), event_id: id };
    };
    const evs = happy();
    feed(engine, fold, [retarget(evs[4]!, "evt_o2"), retarget(evs[5]!, "evt_o3"), retarget(evs[6]!, "evt_o4")]);
    Object.assign(event.payload, click("card_formalize_077", "btn_approve_001", "job.approve", other));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
    // …also when the forger keeps the action's job_id as the target job.
    Object.assign(event.payload, click("card_formalize_077", "btn_approve_001", "job.approve", J));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses a card that was only embedded in a job event, never offered in a card message", () => {
    const evs = happy().filter((e) => e.event_id !== "evt_0004");
    const { engine, fold, event } = at("evt_0005", evs);
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses a click naming a card of another conversation", () => {
    const { engine, fold, event } = at("evt_0005");
    feed(engine, fold, [
      {
        event_id: "evt_c2",
        event_type: "conversation.created",
        ts: "2025-12-27T10:15:03.000Z",
        tenant_id: "tnt_acme_001",
        trace_id: "trc_x",
        conversation_id: "cnv_other",
        actor: DAN,
        payload: {
          conversation_id: "cnv_other",
          title: "Other",
          participants: [{ entity_id: "ent_human_dan" }, { entity_id: "ent_agent_scheduler" }],
        },
      },
    ]);
    const s = JSON.stringify([happy()[4], happy()[5], happy()[6]])
      .replaceAll(J, "job_b")
      .replaceAll('"cnv_9f2a"', '"cnv_other"')
      .replaceAll("card_formalize_001", "card_formalize_b");
    feed(
      engine,
      fold,
      (JSON.parse(s) as Raw[]).map((e, i) => ({ ...e, event_id: `evt_b${i}` })),
    );
    // In cnv_9f2a, point at job_b's card (which lives in cnv_other).
    Object.assign(event.payload, click("card_formalize_b", "btn_approve_001", "job.approve", J));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("refuses partial provenance", () => {
    const { engine, fold, event } = at("evt_0005");
    delete event.payload.button_id;
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("checks an agent's event when it does carry a click, and exempts it when it carries none", () => {
    const { engine, fold, event } = at("evt_0010");
    expectPasses(engine, fold, event);
    Object.assign(event.payload, click("card_tracking_001", "btn_nope", "job.provide_input"));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("accepts a human Cancel click (member, provenance) and refuses a cancel claimed on another button", () => {
    const evs = scenario("failure-auth-required.json").events;
    const { engine, fold, event } = at("evt_auth_0004", evs);
    expectPasses(engine, fold, event);
    Object.assign(event.payload, click("card_tracking_003", "btn_switch_zoom_001", "job.cancel"));
    expectRefused(engine, fold, event, P, "INVALID_PROVENANCE");
  });

  it("checks the readable click bubble (message.sent with payload.action)", () => {
    const { engine, fold } = after("evt_0009");
    const bubble = (button_id: string, type: string) => ({
      ...renamed(happy()[3]!, "evt_bubble"),
      ts: "2025-12-27T10:15:17.000Z",
      job_id: J,
      payload: {
        message_id: "msg_bubble",
        kind: "text",
        body_text: "Dan: Provide info",
        action: { card_id: "card_tracking_001", button_id, type, job_id: J },
      },
    });
    expectPasses(engine, fold, bubble("btn_input_001", "job.provide_input"));
    expectRefused(engine, fold, bubble("btn_input_001", "job.approve"), P, "INVALID_PROVENANCE");
  });

  it("a stale Approve click after the job moved on is refused by the FSM", () => {
    // biome-ignore lint/suspicious/noDuplicateTestHooks: `after` here is this file's helper (the state after an event), not a hook
    const { engine, fold } = after("evt_0006");
    const d = engine.check(fold, renamed(happy().find((e) => e.event_id === "evt_0005")!, "evt_stale"));
    expect(d).toMatchObject({ ok: false, violation: { code: "ILLEGAL_JOB_TRANSITION" } });
  });
});
