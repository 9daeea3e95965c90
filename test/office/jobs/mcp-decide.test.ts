import { describe, expect, it } from "vitest";
import type { EntityProfile } from "../../../src/office/context-builder.js";
import type { Draft } from "../../../src/office/emitter.js";
import type { JobEvent } from "../../../src/job/view.js";
import { foldJob, type JobView } from "../../../src/office/job-machine.js";
import { draftsFor } from "../../../src/office/jobs/basics.js";
import { decide } from "../../../src/office/jobs/decide.js";
import type { ToolCallSpec } from "../../../src/office/jobs/model.js";
import { openToolJob } from "../../../src/office/jobs/mcp-step.js";
import type { DecideContext, Decision, JobCommand, McpOutcome, PlannedCall } from "../../../src/office/jobs/model.js";
import type { McpToolInfo } from "../../../src/office/mcp/hub.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "../../../src/office/engine/retry-policy.js";

/** Tool jobs (MCP) in the decider, given / when / then, no database and no server. */

const T = "tnt_mcp";
const NOW = "2026-03-02T09:00:00.000Z";
const DAN = { entity_id: "ent_dan", actor_type: "human" as const };
const TOOLS: Record<string, McpToolInfo> = {
  "files.list_directory": {
    name: "files.list_directory",
    server: "files",
    tool: "list_directory",
    description: "List",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  "files.write_file": {
    name: "files.write_file",
    server: "files",
    tool: "write_file",
    description: "Write",
    inputSchema: {},
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
};
const agent = (modes: Record<string, "auto" | "approve" | "off">): EntityProfile => ({
  entity_id: "ent_agent",
  actor_type: "agent",
  display_name: "Office",
  roles: [],
  capabilities: [],
  allowed_tools: [],
  tool_modes: modes,
});

function context(modes: Record<string, "auto" | "approve" | "off">): DecideContext {
  let n = 0;
  return {
    now: NOW,
    ids: (p) => `${p}_m${++n}`,
    agent: agent(modes),
    defaultTimezone: "Europe/Lisbon",
    profileOf: (id) =>
      id === DAN.entity_id
        ? {
            entity_id: id,
            actor_type: "human",
            display_name: "Dan",
            roles: ["admin"],
            capabilities: [],
            allowed_tools: [],
          }
        : undefined,
    calendar: {
      allowed: false,
      tool: {
        name: "calendar.create_invite",
        version: "v2",
        purpose: () => "",
        sanitize: () => ({ inputs: {}, redactions_applied: [], hashes_applied: [] }),
        providerOf: () => "local",
      },
    },
    mail: "not_configured",
    retrySchedule: DEFAULT_RETRY_SCHEDULE_MS,
    mcpTool: (name) => TOOLS[name],
  };
}

const spec = (name: string): ToolCallSpec => ({
  name,
  server: "files",
  args: { path: "/srv" },
  args_ref: "vault_ref:vlt_args",
  purpose: "List the folder",
});
let seq = 0;
const stored = (ds: readonly Draft[]): JobEvent[] =>
  ds.map((d) => ({ ...d, event_id: d.event_id ?? `evt_s${++seq}`, ts: NOW, tenant_id: T, trace_id: "trc" }));
const given = (events: JobEvent[]) => foldJob(events) as JobView;
const types = (d: Decision) => d.events.map((e) => e.event_type);
const at = { tenant_id: T, conversation_id: "cnv_x", trace_id: "trc" };
const ok = (text: string): McpOutcome => ({ ok: true, text, content_types: ["text"], artifacts: [], latency_ms: 5 });
const fail = (code: "PROVIDER_TIMEOUT" | "INVALID_INPUT", retryable: boolean): McpOutcome => ({
  ok: false,
  error: { error_code: code, message_safe: "nope", retryable },
  latency_ms: 5,
});

/** Dan clicks the button with `action` on the job's latest card of `cardType`. */
function clickOn(job: JobView, cardType: "job.formalize" | "job.tracking", action: string): JobCommand {
  const card = job.latest[cardType]!;
  const b = card.buttons.find((x) => x.action.type === action)!;
  return {
    type: "click",
    click: {
      card_id: card.card_id,
      button_id: b.button_id,
      action: b.action,
      by: { ...DAN, display_name: "Dan", roles: ["admin"] },
    },
    prepared: {},
  };
}

function started(name: string, mode: "auto" | "approve") {
  const ctx = context({ [name]: mode });
  const opened = openToolJob(ctx, at, spec(name), DAN);
  let history = stored(opened.events);
  let call = (opened.effects.find((e) => e.type === "run_tool") as { call: PlannedCall } | undefined)?.call;
  if (mode === "approve") {
    const d = decide(given(history), clickOn(given(history), "job.formalize", "job.approve"), ctx);
    history = [...history, ...stored(d.events)];
    call = (d.effects.find((e) => e.type === "run_tool") as { call: PlannedCall }).call;
  }
  return { ctx, history, call: call!, job_id: opened.job_id };
}

describe("opening a tool job", () => {
  it("auto: starts from draft with auto_allowed, records the intent with the arguments' ledger form and vault entry, and calls", () => {
    const ctx = context({ "files.list_directory": "auto" });
    const d = openToolJob(ctx, at, spec("files.list_directory"), DAN);
    expect(types(d)).toEqual(["job.created", "job.state_changed", "tool.called", "job.progress", "message.sent"]);
    expect(d.events[1]!.payload).toMatchObject({
      prev_state: "draft",
      next_state: "in_progress",
      reason_code: "auto_allowed",
    });
    expect(d.events[2]!.payload).toMatchObject({
      tool_name: "files.list_directory",
      inputs: { server: "files", arguments: { path: "/srv" }, arguments_ref: "vault_ref:vlt_args" },
    });
    expect(d.effects).toMatchObject([
      {
        type: "run_tool",
        call: { tool_name: "files.list_directory", provider: "mcp:files", input: { args_ref: "vault_ref:vlt_args" } },
      },
    ]);
  });

  it("approve: proposes with the server, the tool and the arguments on the card, and calls nothing", () => {
    const d = openToolJob(context({ "files.write_file": "approve" }), at, spec("files.write_file"), DAN);
    expect(types(d)).toEqual(["job.created", "job.proposed", "message.sent"]);
    expect(d.effects).toEqual([]);
    const job = given(stored(d.events));
    expect(job.kind).toBe("tool_call");
    expect((job.latest["job.formalize"]!.job as { constraints?: string[] }).constraints).toEqual([
      "Tool: files.write_file (MCP server files)",
      "Arguments: path=/srv",
    ]);
  });

  it("an approved tool job whose tool was switched off meanwhile waits and calls nothing", () => {
    const opened = openToolJob(context({ "files.write_file": "approve" }), at, spec("files.write_file"), DAN);
    const job = given(stored(opened.events));
    const d = decide(job, clickOn(job, "job.formalize", "job.approve"), context({ "files.write_file": "off" }));
    expect(d.events.filter((e) => e.event_type === "job.state_changed").map((e) => e.payload.reason_code)).toEqual([
      "approved_by_user",
      "tool_not_allowed",
    ]);
    expect(d.effects).toEqual([]);
  });
});

describe("what the tool answered", () => {
  it("success: the result and a Finished card quoting it", () => {
    const { ctx, history, call } = started("files.list_directory", "auto");
    const d = decide(
      given(history),
      { type: "record_mcp_outcome", call, outcome: ok("[FILE] hello.txt"), breaker_open: false },
      ctx,
    );
    expect(types(d)).toEqual(["tool.result", "job.completed", "message.sent"]);
    expect(d.events[0]!.payload).toMatchObject({ status: "success", output: { text: "[FILE] hello.txt" } });
    expect((d.events[1]!.payload.finished_card as { outcome: { summary: string } }).outcome.summary).toBe(
      "files.list_directory answered: “[FILE] hello.txt”",
    );
  });

  it("a read-only tool that timed out is retried on the schedule", () => {
    const { ctx, history, call } = started("files.list_directory", "auto");
    const d = decide(
      given(history),
      { type: "record_mcp_outcome", call, outcome: fail("PROVIDER_TIMEOUT", true), breaker_open: false },
      ctx,
    );
    expect(d.effects).toEqual([{ type: "arm_retry", delay_ms: DEFAULT_RETRY_SCHEDULE_MS[1], attempt: 2 }]);
    const retry = decide(given([...history, ...stored(d.events)]), { type: "retry_due", attempt: 2 }, ctx);
    expect(types(retry)[0]).toBe("tool.called");
    expect(retry.events[0]!.payload).toMatchObject({ attempt: 2, retry_of_tool_call_id: call.call_id });
  });

  it("a tool that changes things is never retried on its own: the job waits with Try again", () => {
    const { ctx, history, call } = started("files.write_file", "approve");
    const d = decide(
      given(history),
      { type: "record_mcp_outcome", call, outcome: fail("PROVIDER_TIMEOUT", true), breaker_open: false },
      ctx,
    );
    expect(d.effects).toEqual([]);
    expect(d.events[0]!.payload).toMatchObject({ retryable: false });
    expect(d.events.find((e) => e.event_type === "job.state_changed")!.payload).toMatchObject({
      next_state: "waiting_input",
      reason_code: "tool_failed",
    });
    const job = given([...history, ...stored(d.events)]);
    const card = job.latest["job.tracking"]!;
    expect(card.buttons.map((b) => b.label)).toEqual(["Try again", "Cancel", "Ask in chat"]);
    const again = card.buttons[0]!;
    const r = decide(
      job,
      {
        type: "click",
        click: {
          card_id: card.card_id,
          button_id: again.button_id,
          action: again.action,
          by: { ...DAN, display_name: "Dan", roles: ["admin"] },
        },
        prepared: {},
      },
      ctx,
    );
    expect(types(r)).toEqual(["job.state_changed", "tool.called", "job.progress", "message.sent"]);
    expect(r.events[1]!.payload).toMatchObject({ attempt: 2 });
  });

  it("after a Cancel, the answer that still arrives is recorded and nothing else", () => {
    const { ctx, history, call } = started("files.write_file", "approve");
    const cancelled = [
      ...history,
      ...stored([
        draftsFor(ctx).stateDraft("ent_agent", given(history).job_id, "in_progress", "cancelled", "cancelled_by_user"),
      ]),
    ];
    const d = decide(
      given(cancelled),
      { type: "record_mcp_outcome", call, outcome: ok("done"), breaker_open: false },
      ctx,
    );
    expect(types(d)).toEqual(["tool.result"]);
  });

  it("after a hand-over during the call, the answer (or the failure) is recorded as Office's system actor, and nothing else", () => {
    for (const outcome of [ok("done"), fail("PROVIDER_TIMEOUT", true)]) {
      const { ctx, history, call, job_id } = started("files.list_directory", "auto");
      const handed = decide(
        given(history),
        {
          type: "hand_over",
          by: { ...DAN, display_name: "Dan", roles: ["admin"] },
          to: { entity_id: DAN.entity_id, display_name: "Dan" },
        },
        ctx,
      );
      const job = given([...history, ...stored(handed.events)]);
      const d = decide(job, { type: "record_mcp_outcome", call, outcome, breaker_open: false }, ctx);
      expect(types(d)).toEqual(["tool.result"]);
      expect(d.events[0]).toMatchObject({
        actor: { entity_id: "system_office", actor_type: "system" },
        job_id,
        payload: { tool_call_id: call.call_id, status: outcome.ok ? "success" : "error" },
      });
      // No retry is armed for a job its agent no longer acts on.
      expect(d.effects).toEqual([]);
    }
  });

  it("progress updates the Tracking card's line and percentage, and stops once the job is over", () => {
    const { ctx, history, call } = started("files.list_directory", "auto");
    const cmd: JobCommand = {
      type: "tool_progress",
      call_id: call.call_id,
      tool_name: call.tool_name,
      progress: 2,
      total: 4,
    };
    const d = decide(given(history), cmd, ctx);
    expect(types(d)).toEqual(["job.progress"]);
    expect(d.events[0]!.payload.tracking_card).toMatchObject({ progress: { percent: 50 } });
    const over = decide(
      given(history).state === "in_progress" ? { ...given(history), state: "completed" } : given(history),
      cmd,
      ctx,
    );
    expect(over.events).toEqual([]);
  });

  it("after a restart: a read-only call is called again under the same id; any other asks a person", () => {
    const ro = started("files.list_directory", "auto");
    expect(decide(given(ro.history), { type: "resume_call" }, ro.ctx)).toMatchObject({
      events: [],
      effects: [{ type: "run_tool", call: { call_id: ro.call.call_id } }],
    });
    const rw = started("files.write_file", "approve");
    const d = decide(given(rw.history), { type: "resume_call" }, rw.ctx);
    expect(d.effects).toEqual([]);
    expect(d.events.find((e) => e.event_type === "tool.result")!.payload).toMatchObject({
      status: "error",
      error: { error_code: "UNKNOWN" },
    });
  });
});
