import { describe, expect, it } from "vitest";
import { ZUblEvent } from "../../../contracts/events.js";
import { createFold } from "../../../src/ledger/fold.js";
import type { PackPolicyEngine, PolicyFold } from "../../../src/ledger/policy/index.js";
import {
  AGENT,
  DAN,
  PACK,
  SYSTEM,
  T,
  after,
  at,
  conversationEvent,
  expectPasses,
  expectRefused,
  feed,
  happy,
  registerEvent,
  renamed,
  scenario,
  type Raw,
} from "./helpers.js";

/**
 * For each policy of the pack: one event it refuses (with its own code, and a valid
 * policy.violation built for it) and one it lets through. Given events (a fold built from the
 * golden path), when one more event is checked, then refused / accepted.
 */
interface Case {
  engine: PackPolicyEngine;
  fold: PolicyFold;
  raw: unknown;
}
type Make = () => Case;

const J = "job_sched_4c1b";
const ev = (id: string): Raw => structuredClone(happy().find((e) => e.event_id === id) as Raw);

function mutateAt(
  eventId: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: a mutator either edits the event in place or returns a replacement
  f: (e: Raw, fold: PolicyFold, engine: PackPolicyEngine) => Raw | void,
  events?: Raw[],
): Make {
  return () => {
    const { fold, event, engine } = at(eventId, events);
    const raw = f(event, fold, engine) ?? event;
    return { engine, fold, raw };
  };
}
const validAt = (eventId: string, events?: Raw[]): Make => mutateAt(eventId, (e) => e, events);

/** After `eventId`, a new event built by `f`. */
function afterThen(eventId: string, f: (fold: PolicyFold, engine: PackPolicyEngine) => Raw, events?: Raw[]): Make {
  return () => {
    const { fold, engine } = after(eventId, events);
    return { engine, fold, raw: f(fold, engine) };
  };
}

/** Administration: an owner (Olive), an admin (Ada) and a member (Eve) besides the golden path's people. */
const OLIVE = "ent_human_olive";
const ADA_ID = "ent_human_ada";
const EVE_ID = "ent_human_eve";
const OLIVE_ACTOR = { entity_id: OLIVE, actor_type: "human" };
const ADA = { entity_id: ADA_ID, actor_type: "human" };
const EVE = { entity_id: EVE_ID, actor_type: "human" };
const ADMIN_SETUP = (): Raw[] => [
  registerEvent("evt_reg_olive", {
    entity_id: OLIVE,
    actor_type: "human",
    display_name: "Olive",
    roles: ["owner", "admin"],
  }),
  registerEvent("evt_reg_ada", { entity_id: ADA_ID, actor_type: "human", display_name: "Ada", roles: ["admin"] }),
  registerEvent("evt_reg_eve", { entity_id: EVE_ID, actor_type: "human", display_name: "Eve", roles: ["member"] }),
];
let adminSeq = 0;
function adminEvent(type: string, payload: Raw, actor: Raw, id = `evt_admin_${++adminSeq}`): Raw {
  return {
    event_id: id,
    event_type: type,
    ts: "2025-12-27T10:00:07.000Z",
    tenant_id: T,
    trace_id: "trc_admin",
    conversation_id: "cnv_workspace",
    actor,
    payload,
  };
}
/** The admin people registered first, then the event under test. */
const admins =
  (f: (fold: PolicyFold, engine: PackPolicyEngine) => Raw) =>
  (fold: PolicyFold, engine: PackPolicyEngine): Raw => {
    feed(engine, fold, ADMIN_SETUP());
    return f(fold, engine);
  };
const ANA = { entity_id: "ent_human_ana", actor_type: "human" };
/** A membership event in the golden path's conversation. */
const memberEvent = (id: string, type: string, actor: Raw, payload: Raw): Raw => ({
  event_id: id,
  event_type: type,
  ts: "2025-12-27T10:00:07.000Z",
  tenant_id: T,
  trace_id: "trc_test",
  conversation_id: "cnv_9f2a",
  actor,
  payload,
});
/** Given Ana registered and the `earlier` events, when `last` is checked. */
function withPeople(fold: PolicyFold, engine: PackPolicyEngine, last: Raw, ...earlier: Raw[]): Raw {
  feed(engine, fold, [
    registerEvent("evt_reg_ana", { entity_id: "ent_human_ana", actor_type: "human", display_name: "Ana" }),
    ...earlier,
  ]);
  return last;
}

const POLICIES: Record<string, { refused: Array<[string, Make]>; valid: Array<[string, Make]> }> = {
  "policy.envelope_required_fields": {
    refused: [
      ["an event without trace_id", mutateAt("evt_0001", (e) => void delete e.trace_id)],
      ["an actor_type outside human/agent/system", mutateAt("evt_0001", (e) => void (e.actor.actor_type = "robot"))],
      ["a non-object event", () => ({ ...at("evt_0001"), raw: "not an event" })],
      ["a ts that is not ISO-8601 (schema gate)", mutateAt("evt_0001", (e) => void (e.ts = "yesterday"))],
      ["an unknown envelope key (schema gate)", mutateAt("evt_0001", (e) => void (e.extra = 1))],
      [
        "entity.registered outside the workspace conversation",
        mutateAt("evt_setup_0002", (e) => void (e.conversation_id = "cnv_9f2a")),
      ],
    ],
    valid: [["the golden path's first message", validAt("evt_0001")]],
  },

  "policy.tenant_isolation": {
    refused: [
      [
        "another tenant's conversation",
        afterThen("evt_setup_0003", (fold, engine) => {
          feed(engine, fold, [
            registerEvent(
              "evt_b_0001",
              { entity_id: "ent_human_dan", actor_type: "human", display_name: "Dan" },
              SYSTEM,
              "tnt_other",
            ),
          ]);
          return { ...ev("evt_0001"), tenant_id: "tnt_other" };
        }),
      ],
      [
        "an actor the tenant never registered",
        mutateAt("evt_0001", (e) => void (e.actor.entity_id = "ent_human_nobody")),
      ],
      [
        "a job.created owned by an unregistered entity",
        mutateAt("evt_0002", (e) => void (e.payload.owner_entity_id = "ent_agent_ghost")),
      ],
      [
        "a job the tenant never created",
        mutateAt("evt_0003", (e) => {
          e.job_id = e.payload.job_id = e.payload.proposed_card.job_id = "job_unknown";
          for (const b of e.payload.proposed_card.buttons) b.action.job_id = "job_unknown";
        }),
      ],
      [
        "a conversation with an unregistered participant",
        mutateAt("evt_setup_0003", (e) => void e.payload.participants.push({ entity_id: "ent_ghost" })),
      ],
    ],
    valid: [["the golden path's first message", validAt("evt_0001")]],
  },

  "policy.event_id_uniqueness": {
    refused: [["an event_id already in the tenant", mutateAt("evt_0002", (e) => void (e.event_id = "evt_0001"))]],
    valid: [["a new event_id", validAt("evt_0002")]],
  },

  "policy.object_uniqueness": {
    refused: [
      ["a second job.created for the same job", afterThen("evt_0002", () => renamed(ev("evt_0002"), "evt_dup_job"))],
      [
        "creating the reserved workspace conversation",
        afterThen("evt_setup_0003", () => conversationEvent("evt_c_ws", "cnv_workspace", ["ent_human_dan"])),
      ],
      [
        "re-using a tool_call_id",
        afterThen("evt_0021", () => ({
          ...renamed(ev("evt_0020"), "evt_dup_call"),
          payload: { ...ev("evt_0020").payload, idempotency_key: "idem:other" },
        })),
      ],
    ],
    valid: [["a new job", validAt("evt_0002")]],
  },

  "policy.message_schema": {
    refused: [
      [
        "a card whose conversation is not the envelope's",
        mutateAt("evt_0004", (e) => void (e.payload.card.conversation_id = "cnv_elsewhere")),
      ],
      [
        "a card whose tenant is not the envelope's",
        mutateAt("evt_0004", (e) => void (e.payload.card.tenant_id = "tnt_elsewhere")),
      ],
      ["a text message without body_text", mutateAt("evt_0001", (e) => void delete e.payload.body_text)],
      ["a card message without job_id", mutateAt("evt_0004", (e) => void delete e.job_id)],
      ["an unknown kind", mutateAt("evt_0001", (e) => void (e.payload.kind = "voice"))],
      [
        "a card button acting on another job",
        mutateAt("evt_0004", (e) => void (e.payload.card.buttons[0].action.job_id = "job_other")),
      ],
      [
        "an artifact message without its artifact",
        mutateAt("evt_0001", (e) => void (e.payload = { message_id: "msg_a", kind: "artifact" })),
      ],
      ["a payload the contract refuses (schema gate)", mutateAt("evt_0001", (e) => void (e.payload.body_text = 42))],
    ],
    valid: [
      ["the Formalize card message", validAt("evt_0004")],
      [
        "an artifact message",
        mutateAt(
          "evt_0001",
          (e) =>
            void (e.payload = {
              message_id: "msg_a",
              kind: "artifact",
              artifact: { artifact_id: "art_1", kind: "file", title: "Agenda.pdf" },
            }),
        ),
      ],
    ],
  },

  "policy.job_schema": {
    refused: [
      [
        "a Formalize card without a Reject button",
        mutateAt("evt_0003", (e) => void e.payload.proposed_card.buttons.splice(1, 1)),
      ],
      [
        "a payload job_id that is not the envelope's",
        mutateAt("evt_0006", (e) => void (e.payload.job_id = "job_other")),
      ],
      ["a job event without job_id", mutateAt("evt_0006", (e) => void delete e.job_id)],
      [
        "a waiting_input Tracking card without waiting_on",
        mutateAt("evt_0008", (e) => void delete e.payload.tracking_card.progress.waiting_on),
      ],
      [
        "a waiting_input Tracking card with an empty waiting_on",
        mutateAt("evt_0008", (e) => void (e.payload.tracking_card.progress.waiting_on = [])),
      ],
      [
        "a Finished card of another tenant",
        mutateAt("evt_0012", (e) => void (e.payload.finished_card.tenant_id = "tnt_elsewhere")),
      ],
      [
        "a Tracking card of another conversation",
        mutateAt("evt_0008", (e) => void (e.payload.tracking_card.conversation_id = "cnv_elsewhere")),
      ],
      [
        "a Formalize card of another job",
        mutateAt("evt_0003", (e) => void (e.payload.proposed_card.job_id = "job_other")),
      ],
      [
        "job.created naming another conversation in its payload",
        mutateAt("evt_0002", (e) => void (e.payload.conversation_id = "cnv_elsewhere")),
      ],
      [
        "a payload the contract refuses (schema gate)",
        mutateAt("evt_0005", (e) => void (e.payload.approved_by = "me")),
      ],
    ],
    valid: [["the golden path's job.proposed", validAt("evt_0003")]],
  },

  "policy.conversation_schema": {
    refused: [
      [
        "conversation.created naming two conversations",
        mutateAt("evt_setup_0003", (e) => void (e.conversation_id = "cnv_other")),
      ],
    ],
    valid: [["the golden path's conversation", validAt("evt_setup_0003")]],
  },

  "policy.job_conversation_lock": {
    refused: [
      [
        "a tool call for the job in another conversation",
        mutateAt("evt_0020", (e, fold, engine) => {
          feed(engine, fold, [conversationEvent("evt_c_other", "cnv_other", ["ent_human_dan", "ent_agent_scheduler"])]);
          e.conversation_id = "cnv_other";
        }),
      ],
      [
        "a job message in another conversation",
        mutateAt("evt_0001", (e, fold, engine) => {
          feed(engine, fold, [
            conversationEvent("evt_c_other", "cnv_other", ["ent_human_dan", "ent_agent_scheduler"]),
            ev("evt_0002"),
          ]);
          e.event_id = "evt_msg_other";
          e.conversation_id = "cnv_other";
          e.job_id = J;
        }),
      ],
    ],
    valid: [["the tool call in the job's conversation", validAt("evt_0020")]],
  },

  "policy.job_fsm": {
    refused: [
      ["approving twice", afterThen("evt_0005", () => renamed(ev("evt_0005"), "evt_approve_again"))],
      [
        "waiting_input → completed by state change",
        mutateAt("evt_0010", (e) => void (e.payload.next_state = "completed")),
      ],
      ["a prev_state that is not the job's", mutateAt("evt_0010", (e) => void (e.payload.prev_state = "in_progress"))],
      [
        "leaving a terminal state",
        afterThen("evt_0013", () => ({
          ...renamed(ev("evt_0010"), "evt_reopen"),
          payload: { job_id: J, prev_state: "completed", next_state: "in_progress" },
        })),
      ],
      ["completing twice", afterThen("evt_0013", () => renamed(ev("evt_0012"), "evt_complete_again"))],
      [
        "completing a job that never started",
        mutateAt("evt_0005", (e) => ({ ...ev("evt_0012"), event_id: "evt_early_done", ts: e.ts })),
      ],
      [
        "a failed Finished card for a job that is completed",
        afterThen("evt_0013", () => {
          const e = renamed(ev("evt_0012"), "evt_fail_after");
          e.payload.finished_card.outcome.result = "failed";
          return e;
        }),
      ],
    ],
    valid: [
      ["approved → in_progress written as the seed writes it (prev_state proposed)", validAt("evt_0006")],
      [
        "job.completed with result failed for a failed job",
        validAt("evt_exh_0008", scenario("failure-retries-exhausted.json").events),
      ],
    ],
  },

  "policy.job_action_state": {
    refused: [
      [
        "a Got it click before the job was approved",
        mutateAt("evt_0005", (e) => ({
          ...e,
          event_id: "evt_ack_early",
          event_type: "job.acknowledged",
          payload: {
            job_id: J,
            card_id: "card_formalize_001",
            button_id: "btn_approve_001",
            action: { type: "job.approve", job_id: J },
          },
        })),
      ],
      [
        "a progress update on a finished job",
        afterThen("evt_0013", () => renamed(ev("evt_0011"), "evt_progress_late")),
      ],
      [
        "providing input to a completed job",
        afterThen("evt_0013", () => renamed(ev("evt_user_action_01"), "evt_input_late")),
      ],
    ],
    valid: [["the provide-info click while waiting_input", validAt("evt_user_action_01")]],
  },

  "policy.conversation_membership": {
    refused: [
      [
        "a message from a registered non-member",
        afterThen("evt_0001", (fold, engine) => {
          feed(engine, fold, [
            registerEvent("evt_reg_eve", { entity_id: "ent_human_eve", actor_type: "human", display_name: "Eve" }),
          ]);
          return {
            ...renamed(ev("evt_0001"), "evt_eve_msg"),
            actor: { entity_id: "ent_human_eve", actor_type: "human" },
          };
        }),
      ],
      [
        "a job owned by a registered non-member",
        mutateAt("evt_0002", (e, fold, engine) => {
          feed(engine, fold, [
            registerEvent("evt_reg_bot", { entity_id: "ent_agent_other", actor_type: "agent", display_name: "Other" }),
          ]);
          e.payload.owner_entity_id = "ent_agent_other";
        }),
      ],
    ],
    valid: [
      ["a member's message", validAt("evt_0001")],
      [
        "a system message from a non-member system actor",
        mutateAt("evt_0001", (e) => void ((e.actor = SYSTEM), (e.payload.kind = "system"))),
      ],
    ],
  },

  "policy.membership_changes": {
    refused: [
      [
        "an agent adding someone",
        afterThen("evt_setup_0003", (fold, engine) =>
          withPeople(
            fold,
            engine,
            memberEvent("evt_m1", "conversation.member_added", AGENT, { entity_id: "ent_human_ana" }),
          ),
        ),
      ],
      [
        "adding someone who is not of the workspace",
        afterThen("evt_setup_0003", () =>
          memberEvent("evt_m2", "conversation.member_added", DAN, { entity_id: "ent_human_nobody" }),
        ),
      ],
      [
        "adding a member twice",
        afterThen("evt_setup_0003", () =>
          memberEvent("evt_m3", "conversation.member_added", DAN, { entity_id: "ent_agent_scheduler" }),
        ),
      ],
      [
        "removing someone by a member who neither created the conversation nor is an admin",
        afterThen("evt_setup_0003", (fold, engine) =>
          withPeople(
            fold,
            engine,
            memberEvent("evt_m5", "conversation.member_removed", ANA, {
              entity_id: "ent_agent_scheduler",
              reason: "removed",
            }),
            memberEvent("evt_m4", "conversation.member_added", DAN, { entity_id: "ent_human_ana" }),
          ),
        ),
      ],
      [
        "leaving in someone else's name",
        afterThen("evt_setup_0003", (fold, engine) =>
          withPeople(
            fold,
            engine,
            memberEvent("evt_m7", "conversation.member_removed", ANA, { entity_id: "ent_human_dan", reason: "left" }),
            memberEvent("evt_m6", "conversation.member_added", DAN, { entity_id: "ent_human_ana" }),
          ),
        ),
      ],
      [
        "removing someone who is not a member",
        afterThen("evt_setup_0003", (fold, engine) =>
          withPeople(
            fold,
            engine,
            memberEvent("evt_m8", "conversation.member_removed", DAN, {
              entity_id: "ent_human_ana",
              reason: "removed",
            }),
          ),
        ),
      ],
    ],
    valid: [
      [
        "a member adding a person of the workspace",
        afterThen("evt_setup_0003", (fold, engine) =>
          withPeople(
            fold,
            engine,
            memberEvent("evt_m9", "conversation.member_added", DAN, { entity_id: "ent_human_ana" }),
          ),
        ),
      ],
      [
        "the creator removing the agent",
        afterThen("evt_setup_0003", () =>
          memberEvent("evt_m10", "conversation.member_removed", DAN, {
            entity_id: "ent_agent_scheduler",
            reason: "removed",
          }),
        ),
      ],
      [
        "a member leaving",
        afterThen("evt_setup_0003", (fold, engine) =>
          withPeople(
            fold,
            engine,
            memberEvent("evt_m12", "conversation.member_removed", ANA, { entity_id: "ent_human_ana", reason: "left" }),
            memberEvent("evt_m11", "conversation.member_added", DAN, { entity_id: "ent_human_ana" }),
          ),
        ),
      ],
      [
        "a member renaming",
        afterThen("evt_setup_0003", () => memberEvent("evt_m13", "conversation.renamed", DAN, { title: "Scheduling" })),
      ],
    ],
  },

  "policy.job_authority": {
    refused: [
      ["an approval by a member without job_approver", mutateAt("evt_0005", (e) => void (e.actor = AGENT))],
      ["a tool call by a human", mutateAt("evt_0020", (e) => void (e.actor = DAN))],
      ["a human state change that is not a cancel", mutateAt("evt_0010", (e) => void (e.actor = DAN))],
      ["a card message by someone other than the job owner", mutateAt("evt_0004", (e) => void (e.actor = DAN))],
      ["a progress update by a human", mutateAt("evt_0011", (e) => void (e.actor = DAN))],
      ["a click event written as the agent", mutateAt("evt_user_action_01", (e) => void (e.actor = AGENT))],
      [
        "a job event by a non-member",
        mutateAt("evt_0005", (e, fold, engine) => {
          feed(engine, fold, [
            registerEvent("evt_reg_appr", {
              entity_id: "ent_human_zoe",
              actor_type: "human",
              display_name: "Zoe",
              roles: ["job_approver"],
            }),
          ]);
          e.actor = { entity_id: "ent_human_zoe", actor_type: "human" };
        }),
      ],
    ],
    valid: [
      ["the approver's approval", validAt("evt_0005")],
      [
        "an approval by a system actor (no click)",
        mutateAt("evt_0005", (e) => void ((e.actor = SYSTEM), (e.payload = { job_id: J }))),
      ],
      ["the owner's state change", validAt("evt_0010")],
    ],
  },

  "policy.workspace_authority": {
    refused: [
      [
        "a registration by a human who is not an admin",
        afterThen("evt_setup_0003", () =>
          registerEvent("evt_reg_x", { entity_id: "ent_human_eve", actor_type: "human", display_name: "Eve" }, DAN),
        ),
      ],
      [
        "a policy.violation written by an agent",
        afterThen("evt_0001", () => ({
          event_id: "evt_fake_pol",
          event_type: "policy.violation",
          ts: "2025-12-27T10:16:00.000Z",
          tenant_id: T,
          trace_id: "trc_x",
          conversation_id: "cnv_9f2a",
          actor: AGENT,
          payload: {
            violated_policy_id: "policy.no_raw_pii",
            code: "RAW_PII_DETECTED",
            event_type: "message.sent",
            event_id: "evt_0001",
            message_safe: "x",
          },
        })),
      ],
    ],
    valid: [
      ["the bootstrap registration by a system actor", validAt("evt_setup_0001")],
      [
        "a registration by an admin",
        afterThen("evt_setup_0003", (fold, engine) => {
          feed(engine, fold, [
            registerEvent("evt_reg_admin", {
              entity_id: "ent_human_ada",
              actor_type: "human",
              display_name: "Ada",
              roles: ["admin"],
            }),
          ]);
          return registerEvent(
            "evt_reg_by_admin",
            { entity_id: "ent_human_eve", actor_type: "human", display_name: "Eve" },
            { entity_id: "ent_human_ada", actor_type: "human" },
          );
        }),
      ],
    ],
  },

  "policy.profile_authority": {
    refused: [
      [
        "a profile edit of someone else by a non-admin",
        afterThen("evt_0001", () => ({
          event_id: "evt_profile_x",
          event_type: "entity.profile_updated",
          ts: "2025-12-27T10:16:00.000Z",
          tenant_id: T,
          trace_id: "trc_x",
          conversation_id: "cnv_workspace",
          actor: AGENT,
          payload: { entity_id: "ent_human_dan", display_name: "Not Dan" },
        })),
      ],
    ],
    valid: [
      [
        "a person's own profile",
        afterThen("evt_0001", () => ({
          event_id: "evt_profile_ok",
          event_type: "entity.profile_updated",
          ts: "2025-12-27T10:16:00.000Z",
          tenant_id: T,
          trace_id: "trc_x",
          conversation_id: "cnv_workspace",
          actor: DAN,
          payload: { entity_id: "ent_human_dan", time_zone: "America/New_York" },
        })),
      ],
    ],
  },

  "policy.admin_authority": {
    refused: [
      [
        "a role change by a member",
        afterThen(
          "evt_setup_0003",
          admins(() => adminEvent("entity.role_changed", { entity_id: ADA_ID, roles: ["member"] }, EVE)),
        ),
      ],
      [
        "an admin demoting an owner",
        afterThen(
          "evt_setup_0003",
          admins(() => adminEvent("entity.role_changed", { entity_id: OLIVE, roles: ["admin"] }, ADA)),
        ),
      ],
      [
        "an admin re-registering someone with new roles",
        afterThen(
          "evt_setup_0003",
          admins(() =>
            registerEvent(
              "evt_rereg",
              { entity_id: EVE_ID, actor_type: "human", display_name: "Eve", roles: ["admin"] },
              ADA,
            ),
          ),
        ),
      ],
      [
        "pausing a person",
        afterThen(
          "evt_setup_0003",
          admins(() => adminEvent("agent.paused", { entity_id: EVE_ID }, ADA)),
        ),
      ],
    ],
    valid: [
      [
        "an owner making a member an admin",
        afterThen(
          "evt_setup_0003",
          admins(() =>
            adminEvent("entity.role_changed", { entity_id: EVE_ID, roles: ["admin", "job_approver"] }, OLIVE_ACTOR),
          ),
        ),
      ],
      [
        "an admin pausing an agent",
        afterThen(
          "evt_setup_0003",
          admins(() => adminEvent("agent.paused", { entity_id: AGENT.entity_id }, ADA)),
        ),
      ],
    ],
  },

  "policy.last_owner": {
    refused: [
      [
        "the only owner deactivating themself",
        afterThen(
          "evt_setup_0003",
          admins(() => adminEvent("entity.deactivated", { entity_id: OLIVE, reason: "deactivated" }, OLIVE_ACTOR)),
        ),
      ],
    ],
    valid: [
      [
        "an owner deactivating a member",
        afterThen(
          "evt_setup_0003",
          admins(() => adminEvent("entity.deactivated", { entity_id: EVE_ID, reason: "deactivated" }, OLIVE_ACTOR)),
        ),
      ],
    ],
  },

  "policy.active_actor": {
    refused: [
      [
        "a job proposed by a paused agent",
        afterThen("evt_0002", (fold, engine) => {
          feed(engine, fold, [
            ...ADMIN_SETUP(),
            adminEvent("agent.paused", { entity_id: AGENT.entity_id }, ADA, "evt_pause"),
          ]);
          return ev("evt_0003");
        }),
      ],
    ],
    valid: [
      [
        "the same proposal once the agent is resumed",
        afterThen("evt_0002", (fold, engine) => {
          feed(engine, fold, [
            ...ADMIN_SETUP(),
            adminEvent("agent.paused", { entity_id: AGENT.entity_id }, ADA, "evt_pause"),
            adminEvent("agent.resumed", { entity_id: AGENT.entity_id }, ADA, "evt_resume"),
          ]);
          return ev("evt_0003");
        }),
      ],
    ],
  },
  "policy.card_provenance": {
    refused: [
      [
        "a click on a button the card does not have",
        mutateAt("evt_0005", (e) => void (e.payload.button_id = "btn_forged")),
      ],
      ["a human approval without the click", mutateAt("evt_0005", (e) => void (e.payload = { job_id: J }))],
    ],
    valid: [["the real Approve click", validAt("evt_0005")]],
  },

  "policy.tool_schema": {
    refused: [
      ["a tool call without job_id", mutateAt("evt_0020", (e) => void delete e.job_id)],
      [
        "an error result without its error",
        mutateAt("evt_0021", (e) => void ((e.payload.status = "error"), delete e.payload.output)),
      ],
      [
        "a retry without an attempt number",
        afterThen("evt_0021", () => ({
          ...renamed(ev("evt_0020"), "evt_retry_x"),
          payload: { ...ev("evt_0020").payload, tool_call_id: "tcall_009", retry_of_tool_call_id: "tcall_001" },
        })),
      ],
    ],
    valid: [["the golden tool call", validAt("evt_0020")]],
  },

  "policy.tool_allowlist": {
    refused: [
      ["a tool the agent is not allowed", mutateAt("evt_0020", (e) => void (e.payload.tool_name = "email.send"))],
    ],
    valid: [["calendar.create_invite for the Scheduler", validAt("evt_0020")]],
  },

  "policy.tool_approval": {
    refused: [
      [
        "a call in a job its agent marked approved itself",
        mutateAt(
          "evt_0020",
          (e) => e,
          happy().map((e) =>
            e.event_id === "evt_0005"
              ? {
                  ...e,
                  event_type: "job.state_changed",
                  actor: AGENT,
                  payload: { job_id: J, prev_state: "proposed", next_state: "approved", reason_code: "self_approved" },
                }
              : e,
          ),
        ),
      ],
      [
        "a draft job started without saying it runs auto tools",
        afterThen("evt_0002", () => ({
          ...renamed(ev("evt_0006"), "evt_start"),
          payload: { job_id: J, prev_state: "draft", next_state: "in_progress", reason_code: "approved_by_user" },
        })),
      ],
    ],
    valid: [["a call in a job a person approved", validAt("evt_0020")]],
  },

  "policy.tool_idempotency": {
    refused: [
      [
        "a new call re-using a job+tool key",
        afterThen("evt_0021", () => ({
          ...renamed(ev("evt_0020"), "evt_call_2"),
          payload: { ...ev("evt_0020").payload, tool_call_id: "tcall_002" },
        })),
      ],
      [
        "a 'retry' of a call that does not exist",
        afterThen("evt_0021", () => ({
          ...renamed(ev("evt_0020"), "evt_call_2"),
          payload: {
            ...ev("evt_0020").payload,
            tool_call_id: "tcall_002",
            attempt: 2,
            retry_of_tool_call_id: "tcall_nope",
          },
        })),
      ],
      [
        "a 'retry' with attempt 1",
        afterThen("evt_0021", () => ({
          ...renamed(ev("evt_0020"), "evt_call_2"),
          payload: {
            ...ev("evt_0020").payload,
            tool_call_id: "tcall_002",
            attempt: 1,
            retry_of_tool_call_id: "tcall_001",
          },
        })),
      ],
    ],
    valid: [
      [
        "a retry naming the earlier call of the same key",
        validAt("evt_retry_0001", scenario("failure-retryable.json").events),
      ],
    ],
  },

  "policy.tool_pairing": {
    refused: [
      ["a result with no call", mutateAt("evt_0021", (e) => void (e.payload.tool_call_id = "tcall_999"))],
      [
        "a result naming another tool",
        mutateAt("evt_0021", (e) => void (e.payload.tool_name = "calendar.delete_invite")),
      ],
      ["a result before its call", mutateAt("evt_0021", (e) => void (e.ts = "2025-12-27T10:15:23.000Z"))],
    ],
    valid: [["the golden result", validAt("evt_0021")]],
  },

  "policy.tool_only_during_work": {
    refused: [
      [
        "a tool call while waiting_input",
        mutateAt("evt_user_action_01", () => renamed(ev("evt_0020"), "evt_call_waiting")),
      ],
    ],
    valid: [["a tool call in_progress", validAt("evt_0020")]],
  },

  "policy.no_raw_pii": {
    refused: [
      [
        "the seed's Finished card summary with maria@acme.com",
        mutateAt(
          "evt_0012",
          (e) => void (e.payload.finished_card.outcome.summary = "Sent it to maria@acme.com for Tue–Thu."),
        ),
      ],
      [
        "an upper-case email in tool inputs",
        mutateAt("evt_0020", (e) => void (e.payload.inputs.attendees[0].email = "MARIA@ACME.COM")),
      ],
      ["an email as an object key", mutateAt("evt_0020", (e) => void (e.payload.inputs["maria@acme.com"] = true))],
      [
        "a phone number in chat",
        mutateAt("evt_0001", (e) => void (e.payload.body_text = "Call Maria on +351 912 345 678 please")),
      ],
      [
        "a US-style phone number in tool output",
        mutateAt("evt_0021", (e) => void (e.payload.output.contact = "(555) 123-4567")),
      ],
      [
        "a phone number typed as input",
        mutateAt("evt_user_action_01", (e) => void (e.payload.inputs.phone = "912345678")),
      ],
    ],
    valid: [
      ["timestamps, redacted emails, hashes and vault refs (the golden tool call)", validAt("evt_0020")],
      ["the redacted Finished card", validAt("evt_0012")],
      [
        "documentation-domain placeholders and dates in text",
        mutateAt(
          "evt_0001",
          (e) =>
            void (e.payload.body_text =
              "Use name@example.com; meet 2025-12-30 14:30, order 1234, url https://zoom.us/j/98765432101"),
        ),
      ],
    ],
  },
};

/** A message change (edit, delete, reaction) or reply in Dan's chat with the agent, after the golden path's first message. */
function messageEvent(
  id: string,
  type: string,
  payload: Raw,
  actor: Raw = DAN,
  ts = "2025-12-27T10:20:00.000Z",
  conversationId = "cnv_9f2a",
): Raw {
  return {
    event_id: id,
    event_type: type,
    ts,
    tenant_id: T,
    trace_id: "trc_test",
    conversation_id: conversationId,
    actor,
    payload,
  };
}
const ADMIN = { entity_id: "ent_human_root", actor_type: "human" };
/** After msg_0001: Ana (a member of no conversation of the golden path), an admin in Dan's chat, and a second chat of Dan and Ana. */
function withChatPeople(f: (fold: PolicyFold, engine: PackPolicyEngine) => Raw): Make {
  return afterThen("evt_0001", (fold, engine) => {
    feed(engine, fold, [
      registerEvent("evt_m_0001", { entity_id: "ent_human_ana", actor_type: "human", display_name: "Ana" }),
      registerEvent("evt_m_0002", {
        entity_id: "ent_human_root",
        actor_type: "human",
        display_name: "Root",
        roles: ["admin"],
      }),
      conversationEvent("evt_m_0003", "cnv_other", ["ent_human_dan", "ent_human_ana"]),
      messageEvent(
        "evt_m_0004",
        "message.sent",
        { message_id: "msg_other", kind: "text", body_text: "hi Ana" },
        DAN,
        "2025-12-27T10:16:00.000Z",
        "cnv_other",
      ),
    ]);
    return f(fold, engine);
  });
}
const edit = (actor: Raw = DAN, ts?: string) =>
  messageEvent("evt_m_0100", "message.edited", { message_id: "msg_0001", body_text: "a 45-min call" }, actor, ts);
const del = (actor: Raw = DAN, messageId = "msg_0001") =>
  messageEvent("evt_m_0101", "message.deleted", { message_id: messageId, body_hash: "blake3:0123456789abcdef" }, actor);
const react = (actor: Raw = DAN, messageId = "msg_0001") =>
  messageEvent("evt_m_0102", "message.reacted", { message_id: messageId, emoji: "👍", on: true }, actor);
const reply = (to: string) =>
  messageEvent("evt_m_0103", "message.sent", {
    message_id: "msg_reply",
    kind: "text",
    body_text: "yes",
    reply_to_message_id: to,
  });
const pin = (actor: Raw = DAN, messageId = "msg_0001") =>
  messageEvent("evt_m_0104", "message.pinned", { message_id: messageId, on: true }, actor);
/** `actor` forwards a message into cnv_other (Dan and Ana's chat), naming where it was and who wrote it. */
const forward = (actor: Raw, from: { conversation_id: string; message_id: string; author_entity_id: string }) =>
  messageEvent(
    "evt_m_0105",
    "message.sent",
    { message_id: "msg_fwd", kind: "text", body_text: "a 30-min call", forwarded_from: from },
    actor,
    undefined,
    "cnv_other",
  );
const threadReply = (root: string) =>
  messageEvent("evt_m_0106", "message.sent", {
    message_id: "msg_in_thread",
    kind: "text",
    body_text: "in the thread",
    thread_root_message_id: root,
  });
const follow = (actor: Raw = DAN, messageId = "msg_0001") =>
  messageEvent("evt_m_0107", "thread.followed", { message_id: messageId, on: true }, actor);
const FROM_0001 = { conversation_id: "cnv_9f2a", message_id: "msg_0001", author_entity_id: "ent_human_dan" };

Object.assign(POLICIES, {
  "policy.message_change_membership": {
    refused: [
      ["an edit by someone not in the conversation", withChatPeople(() => edit(ANA))],
      ["a reaction by someone not in the conversation", withChatPeople(() => react(ANA))],
      ["a pin by someone not in the conversation", withChatPeople(() => pin(ANA))],
      ["following a thread by someone not in the conversation", withChatPeople(() => follow(ANA))],
    ],
    valid: [
      ["a reaction by a member", withChatPeople(() => react(AGENT))],
      ["a pin by a member", withChatPeople(() => pin(AGENT))],
    ],
  },
  "policy.message_forward": {
    refused: [
      ["a forward of a message of a conversation the sender is not in", withChatPeople(() => forward(ANA, FROM_0001))],
      [
        "a forward naming another author",
        withChatPeople(() => forward(DAN, { ...FROM_0001, author_entity_id: "ent_human_ana" })),
      ],
      [
        "a forward naming the wrong conversation",
        withChatPeople(() => forward(DAN, { ...FROM_0001, message_id: "msg_other" })),
      ],
      [
        "a forward of a deleted message",
        withChatPeople((fold, engine) => {
          feed(engine, fold, [del()]);
          return forward(DAN, FROM_0001);
        }),
      ],
    ],
    valid: [["a forward by a member of both, naming the author", withChatPeople(() => forward(DAN, FROM_0001))]],
  },
  "policy.message_target": {
    refused: [
      [
        "an edit of a message that does not exist",
        withChatPeople(() => ({ ...edit(), payload: { message_id: "msg_nope", body_text: "x" } })),
      ],
      ["a reaction to a message of another conversation", withChatPeople(() => react(DAN, "msg_other"))],
      [
        "an edit of a deleted message",
        withChatPeople((fold, engine) => {
          feed(engine, fold, [del()]);
          return edit();
        }),
      ],
      ["a reply to a message of another conversation", withChatPeople(() => reply("msg_other"))],
      ["a pin of a message of another conversation", withChatPeople(() => pin(DAN, "msg_other"))],
      ["a thread reply to a message that does not exist", withChatPeople(() => threadReply("msg_nope"))],
      [
        "a thread reply to a deleted root",
        withChatPeople((fold, engine) => {
          feed(engine, fold, [del()]);
          return threadReply("msg_0001");
        }),
      ],
      ["following the thread of a message of another conversation", withChatPeople(() => follow(DAN, "msg_other"))],
    ],
    valid: [
      ["a thread reply to a message of the same conversation", withChatPeople(() => threadReply("msg_0001"))],
      ["following a thread of the same conversation", withChatPeople(() => follow(AGENT, "msg_0001"))],
      ["a reply to a message of the same conversation", withChatPeople(() => reply("msg_0001"))],
      ["a reaction by the agent to a message of its conversation", withChatPeople(() => react(AGENT, "msg_0001"))],
    ],
  },
  "policy.message_authority": {
    refused: [
      ["an edit by someone who did not write it", withChatPeople(() => edit(AGENT))],
      ["a deletion by a member who did not write it and is no admin", withChatPeople(() => del(AGENT))],
    ],
    valid: [
      ["an edit by its author", withChatPeople(() => edit())],
      [
        "a deletion by an admin of the conversation",
        withChatPeople((fold, engine) => {
          feed(engine, fold, [
            conversationEvent("evt_m_0005", "cnv_admin", ["ent_human_root", "ent_human_dan"], ADMIN),
          ]);
          feed(engine, fold, [
            messageEvent(
              "evt_m_0006",
              "message.sent",
              { message_id: "msg_dan", kind: "text", body_text: "hello" },
              DAN,
              "2025-12-27T10:17:00.000Z",
              "cnv_admin",
            ),
          ]);
          return { ...del(ADMIN, "msg_dan"), conversation_id: "cnv_admin" };
        }),
      ],
    ],
  },
  "policy.message_edit_window": {
    refused: [
      ["an edit a day and a second after the message", withChatPeople(() => edit(DAN, "2025-12-28T10:15:01.000Z"))],
    ],
    valid: [["an edit a day after the message", withChatPeople(() => edit(DAN, "2025-12-28T10:15:00.000Z"))]],
  },
});

/** A workspace's overrides of the pack, by `actor` (Olive the owner unless said). */
const overrides = (payload: Raw, actor: Raw = OLIVE_ACTOR) => adminEvent("policy.overrides_set", payload, actor);
const overridesAfterAdmins = (payload: Raw, actor?: Raw) =>
  afterThen(
    "evt_setup_0003",
    admins(() => overrides(payload, actor)),
  );

Object.assign(POLICIES, {
  "policy.override_authority": {
    refused: [
      ["overrides set by a member", overridesAfterAdmins({ modes: {}, params: {} }, EVE)],
      [
        "overrides set outside the workspace conversation",
        afterThen(
          "evt_setup_0003",
          admins(() => ({ ...overrides({ modes: {}, params: {} }), conversation_id: "cnv_9f2a" })),
        ),
      ],
    ],
    valid: [
      [
        "overrides set by an admin",
        overridesAfterAdmins({ modes: { "policy.message_edit_window": "warn" }, params: {} }, ADA),
      ],
      ["overrides set by an owner", overridesAfterAdmins({ modes: {}, params: { message_edit_window_seconds: 600 } })],
    ],
  },
  "policy.override_limits": {
    refused: [
      [
        "a policy the pack does not have",
        overridesAfterAdmins({ modes: { "policy.no_such_thing": "off" }, params: {} }),
      ],
      [
        "tenant isolation turned off",
        overridesAfterAdmins({ modes: { "policy.tenant_isolation": "off" }, params: {} }),
      ],
      ["raw PII only warned about", overridesAfterAdmins({ modes: { "policy.no_raw_pii": "warn" }, params: {} })],
      [
        "the overrides' own limits turned off",
        overridesAfterAdmins({ modes: { "policy.override_limits": "off" }, params: {} }),
      ],
      [
        "the violation record warned (a mode it does not offer)",
        overridesAfterAdmins({ modes: { "policy.policy_violation_event": "warn" }, params: {} }),
      ],
      [
        "an edit window below its range",
        overridesAfterAdmins({ modes: {}, params: { message_edit_window_seconds: 59 } }),
      ],
      [
        "an edit window above its range",
        overridesAfterAdmins({ modes: {}, params: { message_edit_window_seconds: 2_592_001 } }),
      ],
      ["a parameter no rule reads", overridesAfterAdmins({ modes: {}, params: { retries: 3 } })],
    ],
    valid: [
      ["the edit window off", overridesAfterAdmins({ modes: { "policy.message_edit_window": "off" }, params: {} })],
      ["the shortest edit window", overridesAfterAdmins({ modes: {}, params: { message_edit_window_seconds: 60 } })],
      [
        "the longest edit window",
        overridesAfterAdmins({ modes: {}, params: { message_edit_window_seconds: 2_592_000 } }),
      ],
      ["an empty set (back to the pack)", overridesAfterAdmins({ modes: {}, params: {} })],
    ],
  },
});

/** After withChatPeople: a public channel of Dan's (`cnv_open`) and a private group of Dan's (`cnv_closed`). */
function withChannels(f: () => Raw): Make {
  return withChatPeople((fold, engine) => {
    const open = conversationEvent("evt_ch_0001", "cnv_open", ["ent_human_dan"]);
    (open.payload as Raw).kind = "group";
    (open.payload as Raw).visibility = "public";
    const closed = conversationEvent("evt_ch_0002", "cnv_closed", ["ent_human_dan"]);
    (closed.payload as Raw).kind = "group";
    feed(engine, fold, [open, closed]);
    return f();
  });
}
const joinEvent = (id: string, conversationId: string, actor: Raw, entityId = String(actor.entity_id)) =>
  messageEvent(id, "conversation.joined", { entity_id: entityId }, actor, "2025-12-27T10:21:00.000Z", conversationId);

Object.assign(POLICIES, {
  "policy.public_channels": {
    refused: [
      ["joining a private group", withChannels(() => joinEvent("evt_ch_j1", "cnv_closed", ANA))],
      ["joining in someone else's name", withChannels(() => joinEvent("evt_ch_j2", "cnv_open", DAN, "ent_human_ana"))],
      ["joining a channel one is already in", withChannels(() => joinEvent("evt_ch_j3", "cnv_open", DAN))],
      ["an agent joining by itself", withChannels(() => joinEvent("evt_ch_j4", "cnv_open", AGENT))],
      [
        "a public direct chat",
        withChatPeople(() => {
          const e = conversationEvent("evt_ch_0003", "cnv_pub_dm", ["ent_human_dan", "ent_human_ana"]);
          Object.assign(e.payload as Raw, { kind: "direct", visibility: "public" });
          return e;
        }),
      ],
    ],
    valid: [
      [
        "a person of the workspace joining a public channel",
        withChannels(() => joinEvent("evt_ch_j5", "cnv_open", ANA)),
      ],
      [
        "a public group",
        withChatPeople(() => {
          const e = conversationEvent("evt_ch_0004", "cnv_pub", ["ent_human_dan"]);
          Object.assign(e.payload as Raw, { kind: "group", visibility: "public" });
          return e;
        }),
      ],
    ],
  },
});

describe("Policy Pack v1: every policy refuses what it should and passes what it should", () => {
  it("has a case for every rejecting policy in the pack", () => {
    const rejecting = PACK.policies.filter((p) => p.on_violation.action === "reject").map((p) => p.policy_id);
    expect(Object.keys(POLICIES).sort()).toEqual([...rejecting].sort());
  });

  for (const [policyId, cases] of Object.entries(POLICIES)) {
    describe(policyId, () => {
      for (const [name, make] of cases.refused) {
        it(`refuses ${name}`, () => {
          const { engine, fold, raw } = make();
          const schemaGate = name.includes("(schema gate)");
          const d = expectRefused(engine, fold, raw, policyId);
          if (schemaGate && !d.ok) expect(d.violation.message_safe).toMatch(/^Invalid /);
        });
      }
      for (const [name, make] of cases.valid) {
        it(`passes ${name}`, () => {
          const { engine, fold, raw } = make();
          expectPasses(engine, fold, raw);
        });
      }
    });
  }

  describe("policy.policy_violation_event (emit_on_reject)", () => {
    it("builds the policy.violation from the template for a refusal, signed by system_policy_agent", () => {
      const { engine, fold, event } = at("evt_0012");
      event.payload.finished_card.outcome.summary = "Sent to maria@acme.com";
      const d = engine.check(fold, event);
      expect(d.ok).toBe(false);
      if (d.ok) return;
      const v = engine.violationEvent(event, d.violation, {
        event_id: "evt_pol_0001",
        ts: "2025-12-27T10:16:10.000Z",
        mode: "enforce",
      });
      expect(v).toEqual(
        ZUblEvent.parse({
          event_id: "evt_pol_0001",
          event_type: "policy.violation",
          ts: "2025-12-27T10:16:10.000Z",
          tenant_id: T,
          trace_id: "trc_20251227_001",
          conversation_id: "cnv_9f2a",
          job_id: J,
          actor: { entity_id: "system_policy_agent", actor_type: "system" },
          payload: {
            violated_policy_id: "policy.no_raw_pii",
            code: "RAW_PII_DETECTED",
            event_type: "job.completed",
            event_id: "evt_0012",
            message_safe: "Raw email detected in payload.finished_card.outcome.summary",
            mode: "enforce",
          },
        }),
      );
      expect(JSON.stringify(v)).not.toContain("maria@acme.com");
    });

    it("emits nothing when the policy is off for the tenant, and never about a policy.violation", () => {
      const { engine, fold, event } = at("evt_0001");
      delete event.trace_id;
      const d = engine.check(fold, event);
      if (d.ok) throw new Error("expected a refusal");
      const ctx = { event_id: "evt_pol_0002", ts: "2025-12-27T10:16:10.000Z", mode: "enforce" as const };
      const v = engine.violationEvent(event, d.violation, ctx);
      expect(v).not.toBeNull();
      expect(engine.violationEvent(v, d.violation, ctx)).toBeNull();
      engine.setTenantMode(T, "policy.policy_violation_event", "off");
      expect(engine.violationEvent(event, d.violation, ctx)).toBeNull();
    });

    it("names the workspace conversation (and no job) when the event's own are not the tenant's", () => {
      const { engine, fold } = after("evt_setup_0003");
      const raw = { ...ev("evt_0003"), conversation_id: "cnv_foreign", job_id: "job_foreign" };
      const d = engine.check(fold, raw);
      if (d.ok) throw new Error("expected a refusal");
      const v = engine.violationEvent(raw, d.violation, {
        event_id: "evt_pol_0003",
        ts: "2025-12-27T10:16:10.000Z",
        mode: "enforce",
        fold,
      });
      expect(v).toMatchObject({ conversation_id: "cnv_workspace" });
      expect(v).not.toHaveProperty("job_id");
      expect(engine.check(fold, v).ok).toBe(true);
    });

    it("uses the batch tenant when the raw event has none", () => {
      const engine = at("evt_0001").engine;
      const v = engine.violationEvent(
        {},
        { policy_id: null, code: "UNKNOWN_EVENT_TYPE", message_safe: "x" },
        {
          event_id: "evt_pol_0004",
          ts: "2025-12-27T10:16:10.000Z",
          mode: "enforce",
          tenant_id: T,
        },
      );
      expect(v).toMatchObject({
        tenant_id: T,
        conversation_id: "cnv_workspace",
        payload: { violated_policy_id: "schema_gate", event_type: "unknown", event_id: "unknown" },
      });
    });
  });

  describe("schema gate codes outside the pack", () => {
    it("an unknown event_type is UNKNOWN_EVENT_TYPE with no policy", () => {
      const { engine, fold, event } = at("evt_0001");
      event.event_type = "message.exploded";
      expectRefused(engine, fold, event, null, "UNKNOWN_EVENT_TYPE");
    });

    it("an invalid payload of a non-message, non-job event is VALIDATION_ERROR with no policy", () => {
      const { engine, fold, event } = at("evt_setup_0003");
      event.payload.participants = [];
      expectRefused(engine, fold, event, null, "VALIDATION_ERROR");
    });

    it("names the path and never echoes the value", () => {
      const { engine, fold, event } = at("evt_0001");
      event.payload.body_text = { secret: "maria@acme.com" };
      const d = engine.check(fold, event);
      expect(d.ok).toBe(false);
      if (!d.ok) {
        expect(d.violation.message_safe).toContain("payload.body_text");
        expect(d.violation.message_safe).not.toContain("maria");
      }
    });
  });

  it("a refused event leaves the fold untouched (check is pure)", () => {
    const { engine, fold, event } = at("evt_0005");
    const before = JSON.stringify(fold.snapshot());
    event.payload.button_id = "btn_forged";
    engine.check(fold, event);
    engine.check(fold, ev("evt_0005"));
    expect(JSON.stringify(fold.snapshot())).toBe(before);
  });

  it("needs the fold from createFold()", () => {
    const { engine } = at("evt_0001");
    const bare = { ...createFold(), card: undefined } as unknown as PolicyFold;
    expect(() => engine.check(bare, ev("evt_0001"))).toThrow(/createFold/);
  });
});

describe("the policy.violation of a cross-tenant attempt", () => {
  it("is written for the batch's tenant and names none of the other tenant's objects", () => {
    const { engine, fold } = after("evt_0013");
    feed(engine, fold, [
      registerEvent(
        "evt_b_0001",
        { entity_id: "ent_human_mallory", actor_type: "human", display_name: "M" },
        SYSTEM,
        "tnt_other",
      ),
    ]);
    const raw = {
      ...ev("evt_0001"),
      event_id: "evt_x",
      actor: { entity_id: "ent_human_mallory", actor_type: "human" },
    };
    const d = engine.check(fold, raw);
    if (d.ok) throw new Error("expected a refusal");
    const v = engine.violationEvent(raw, d.violation, {
      event_id: "evt_pol_x",
      ts: "2025-12-27T10:30:00.000Z",
      mode: "enforce",
      tenant_id: "tnt_other",
      fold,
    });
    expect(v).toMatchObject({ tenant_id: "tnt_other", conversation_id: "cnv_workspace" });
    expect(v).not.toHaveProperty("job_id");
  });
});
