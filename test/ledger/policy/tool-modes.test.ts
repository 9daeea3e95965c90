import { describe, expect, it } from "vitest";
import { createFold } from "../../../src/ledger/fold.js";
import {
  AGENT,
  DAN,
  expectPasses,
  expectRefused,
  feed,
  happy,
  newEngine,
  registerEvent,
  T,
  type Raw,
} from "./helpers.js";

/**
 * Tool modes are ledger events (agent.tool_mode_set) and the pack enforces them: an admin
 * chooses auto / approve / off per agent and tool; auto tools may run in a job nobody
 * approved (started from draft with reason auto_allowed), approve tools only in a job a person
 * approved, off tools never — even when the agent's allowed_tools lists them.
 */

const ADA = { entity_id: "ent_human_ada", actor_type: "human" };
const CONV = "cnv_9f2a";
let n = 0;
const base = (type: string, actor: Raw, payload: Raw, extra: Raw = {}): Raw => ({
  event_id: `evt_tm_${++n}`,
  event_type: type,
  ts: "2025-12-27T10:20:00.000Z",
  tenant_id: T,
  trace_id: "trc_tools",
  conversation_id: CONV,
  actor,
  payload,
  ...extra,
});
const mode = (tool: string, m: string, actor: Raw = ADA) =>
  base(
    "agent.tool_mode_set",
    actor,
    { agent_entity_id: AGENT.entity_id, tool_name: tool, mode: m },
    { conversation_id: "cnv_workspace" },
  );
const job = (id: string) =>
  base(
    "job.created",
    AGENT,
    { job_id: id, title: "List the shared folder", conversation_id: CONV, owner_entity_id: AGENT.entity_id },
    { job_id: id },
  );
const autoStart = (id: string, reason = "auto_allowed") =>
  base(
    "job.state_changed",
    AGENT,
    { job_id: id, prev_state: "draft", next_state: "in_progress", reason_code: reason },
    { job_id: id },
  );
const call = (id: string, tool: string) =>
  base(
    "tool.called",
    AGENT,
    {
      tool_call_id: `tcall_${id}_${tool.replace(/\W/g, "")}`,
      tool_name: tool,
      tool_version: "1",
      purpose: "List a folder",
      inputs: { path: "/srv/shared" },
      pii_policy: { redactions_applied: [], hashes_applied: [], raw_pii_stored: false },
      idempotency_key: `idem:${id}:${tool}:1`,
      attempt: 1,
    },
    { job_id: id },
  );

/** The golden path, plus Ada (an admin) in the workspace and the conversation's agent. */
function world() {
  const engine = newEngine();
  const fold = createFold();
  feed(engine, fold, [
    ...happy(),
    registerEvent("evt_reg_ada", {
      entity_id: ADA.entity_id,
      actor_type: "human",
      display_name: "Ada",
      roles: ["admin"],
    }),
  ]);
  return { engine, fold, feed: (events: Raw[]) => feed(engine, fold, events) };
}

describe("agent.tool_mode_set", () => {
  it("is an admin's choice: not the agent's own, not a member's", () => {
    const w = world();
    expectRefused(w.engine, w.fold, mode("files.list_directory", "auto", AGENT), "policy.workspace_authority");
    expectRefused(w.engine, w.fold, mode("files.list_directory", "auto", DAN), "policy.workspace_authority");
    expectPasses(w.engine, w.fold, mode("files.list_directory", "auto"));
  });

  it("is folded per agent and tool, kept across a re-registration, and undone with a refused batch", () => {
    const w = world();
    w.feed([mode("files.list_directory", "auto"), mode("files.write_file", "approve")]);
    expect(Object.fromEntries(w.fold.entity(T, AGENT.entity_id)!.tool_modes!)).toEqual({
      "files.list_directory": "auto",
      "files.write_file": "approve",
    });
    const m = w.fold.mark();
    w.fold.apply(mode("files.write_file", "off") as never);
    w.fold.rollbackTo(m);
    expect(w.fold.entity(T, AGENT.entity_id)!.tool_modes!.get("files.write_file")).toBe("approve");
    w.feed([
      registerEvent("evt_rereg", {
        entity_id: AGENT.entity_id,
        actor_type: "agent",
        display_name: "Office Scheduler 2",
        allowed_tools: ["calendar.create_invite"],
      }),
    ]);
    expect(w.fold.entity(T, AGENT.entity_id)!.tool_modes!.get("files.list_directory")).toBe("auto");
  });
});

describe("what runs", () => {
  it("an auto tool runs in a job nobody approved, started from draft with reason auto_allowed", () => {
    const w = world();
    w.feed([mode("files.list_directory", "auto"), job("job_auto"), autoStart("job_auto")]);
    expectPasses(w.engine, w.fold, call("job_auto", "files.list_directory"));
  });

  it("an approve tool is refused in a job nobody approved", () => {
    const w = world();
    w.feed([
      mode("files.list_directory", "auto"),
      mode("files.write_file", "approve"),
      job("job_auto"),
      autoStart("job_auto"),
    ]);
    expectRefused(w.engine, w.fold, call("job_auto", "files.write_file"), "policy.tool_approval");
  });

  it("a job cannot leave draft for work without saying it runs auto tools", () => {
    const w = world();
    w.feed([job("job_sneak")]);
    expectRefused(w.engine, w.fold, autoStart("job_sneak", "approved_by_user"), "policy.tool_approval");
  });

  it("a tool set to off is refused even though allowed_tools lists it; a tool with no mode and no listing is refused", () => {
    const w = world();
    w.feed([
      mode("files.list_directory", "auto"),
      job("job_auto"),
      autoStart("job_auto"),
      mode("calendar.create_invite", "off"),
    ]);
    expectRefused(w.engine, w.fold, call("job_auto", "calendar.create_invite"), "policy.tool_allowlist");
    expectRefused(w.engine, w.fold, call("job_auto", "files.move_file"), "policy.tool_allowlist");
  });
});
