import { describe, expect, it } from "vitest";
import {
  AGENT,
  DAN,
  after as foldAfter,
  expectPasses,
  expectRefused,
  feed,
  happy,
  registerEvent,
  T,
  type Raw,
} from "./helpers.js";

/**
 * Profiles and hand-overs under the pack. Given the golden path with Ana (a member with no
 * roles) in Dan's chat with the agent, when a profile edit or a hand-over is checked, then it is
 * accepted or refused by the policy that owns it.
 */
const J = "job_sched_4c1b";
const ANA = { entity_id: "ent_human_ana", actor_type: "human" };
const ADA = { entity_id: "ent_human_ada", actor_type: "human" };

/** The golden path with Ana and Ada registered and Ana in the conversation. */
function withAna(): Raw[] {
  const events = happy();
  const conv = events.find((e) => e.event_id === "evt_setup_0003")!;
  conv.payload.participants.push({ entity_id: ANA.entity_id });
  const i = events.indexOf(conv);
  events.splice(
    i,
    0,
    registerEvent("evt_reg_ana", { entity_id: ANA.entity_id, actor_type: "human", display_name: "Ana" }),
    registerEvent("evt_reg_ada", {
      entity_id: ADA.entity_id,
      actor_type: "human",
      display_name: "Ada",
      roles: ["admin"],
    }),
  );
  return events;
}

function profile(id: string, actor: Raw, payload: Raw, conversation = "cnv_workspace"): Raw {
  return {
    event_id: id,
    event_type: "entity.profile_updated",
    ts: "2025-12-27T10:20:00.000Z",
    tenant_id: T,
    trace_id: "trc_profile",
    conversation_id: conversation,
    actor,
    payload,
  };
}

function handOver(id: string, actor: Raw, to: string, from = AGENT.entity_id, jobId = J): Raw {
  return {
    event_id: id,
    event_type: "job.handed_over",
    ts: "2025-12-27T10:15:05.500Z",
    tenant_id: T,
    trace_id: "trc_hand",
    conversation_id: "cnv_9f2a",
    job_id: jobId,
    actor,
    payload: { job_id: jobId, from_entity_id: from, to_entity_id: to },
  };
}

describe("entity.profile_updated", () => {
  const { fold, engine } = foldAfter("evt_0001", withAna());

  it("a person edits their own name, avatar, zone and language", () => {
    expectPasses(
      engine,
      fold,
      profile("evt_p1", DAN, {
        entity_id: DAN.entity_id,
        display_name: "Daniel",
        time_zone: "America/New_York",
        locale: "en-US",
        avatar_url: "/v1/avatars/x",
      }),
    );
  });
  it("an admin renames someone else, and may not touch anything else of theirs", () => {
    expectPasses(engine, fold, profile("evt_p2", ADA, { entity_id: DAN.entity_id, display_name: "Dan B." }));
    expectRefused(
      engine,
      fold,
      profile("evt_p3", ADA, { entity_id: DAN.entity_id, time_zone: "Asia/Tokyo" }),
      "policy.profile_authority",
      "UNAUTHORIZED_ACTION",
    );
  });
  it("nobody else edits a person's profile: not another member, not an agent", () => {
    expectRefused(
      engine,
      fold,
      profile("evt_p4", ANA, { entity_id: DAN.entity_id, display_name: "Dan?" }),
      "policy.profile_authority",
      "UNAUTHORIZED_ACTION",
    );
    expectRefused(
      engine,
      fold,
      profile("evt_p5", AGENT, { entity_id: DAN.entity_id, time_zone: "Asia/Tokyo" }),
      "policy.profile_authority",
      "UNAUTHORIZED_ACTION",
    );
  });
  it("an unknown entity has no profile, and profiles live in the workspace conversation", () => {
    expectRefused(
      engine,
      fold,
      profile("evt_p6", ADA, { entity_id: "ent_human_nobody", display_name: "X" }),
      "policy.profile_authority",
      "UNAUTHORIZED_ACTION",
    );
    expectRefused(
      engine,
      fold,
      profile("evt_p7", DAN, { entity_id: DAN.entity_id, display_name: "X" }, "cnv_9f2a"),
      "policy.profile_authority",
    );
  });
  it("a name with an address in it is refused like any other name", () => {
    expectRefused(
      engine,
      fold,
      profile("evt_p8", DAN, { entity_id: DAN.entity_id, display_name: "dan@acme.com" }),
      "policy.no_raw_pii",
      "RAW_PII_DETECTED",
    );
  });
});

describe("job.handed_over", () => {
  it("the requester (an approver) hands the open job to a member; the agent can no longer act on it", () => {
    const { fold, engine } = foldAfter("evt_0008", withAna());
    const ho = handOver("evt_h1", DAN, ANA.entity_id);
    expectPasses(engine, fold, ho);
    feed(engine, fold, [ho]);
    expect(fold.job(T, J)?.owner_entity_id).toBe(ANA.entity_id);
    const progress = structuredClone(happy().find((e) => e.event_id === "evt_0011")!);
    progress.event_id = "evt_after_hand";
    expectRefused(engine, fold, progress, "policy.job_authority", "UNAUTHORIZED_ACTION");
    // Handing it back needs the current owner as from_entity_id.
    expectRefused(engine, fold, handOver("evt_h1b", DAN, DAN.entity_id), "policy.job_authority", "UNAUTHORIZED_ACTION");
    expectPasses(engine, fold, handOver("evt_h1c", ANA, DAN.entity_id, ANA.entity_id));
  });
  it("a member who neither asked nor approves may not take it", () => {
    const { fold, engine } = foldAfter("evt_0008", withAna());
    expectRefused(engine, fold, handOver("evt_h2", ANA, ANA.entity_id), "policy.job_authority", "UNAUTHORIZED_ACTION");
  });
  it("only to a person of the conversation", () => {
    const events = withAna();
    const { fold, engine } = foldAfter("evt_0008", events);
    expectRefused(
      engine,
      fold,
      handOver("evt_h3", DAN, AGENT.entity_id),
      "policy.job_authority",
      "UNAUTHORIZED_ACTION",
    );
    feed(engine, fold, [
      registerEvent("evt_reg_eve", { entity_id: "ent_human_eve", actor_type: "human", display_name: "Eve" }),
    ]);
    expectRefused(
      engine,
      fold,
      handOver("evt_h4", DAN, "ent_human_eve"),
      "policy.job_authority",
      "UNAUTHORIZED_ACTION",
    );
  });
  it("not once the job is finished", () => {
    const { fold, engine } = foldAfter("evt_0012", withAna());
    expectRefused(
      engine,
      fold,
      handOver("evt_h5", DAN, ANA.entity_id),
      "policy.job_action_state",
      "ILLEGAL_JOB_TRANSITION",
    );
  });
  it("a requester without roles is known from the message that caused the job", () => {
    const events = withAna();
    const msg = events.find((e) => e.event_id === "evt_0001")!;
    msg.actor = ANA;
    events.find((e) => e.event_id === "evt_0002")!.causation_id = "evt_0001";
    const { fold, engine } = foldAfter("evt_0003", events);
    expect(fold.job(T, J)?.requested_by).toBe(ANA.entity_id);
    expectPasses(engine, fold, handOver("evt_h6", ANA, DAN.entity_id));
  });
});
