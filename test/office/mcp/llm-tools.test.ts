import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmPlanner } from "../../../src/office/llm/llm-planner.js";
import { createChatProvider } from "../../../src/office/llm/provider.js";
import { createLlmStore } from "../../../src/office/llm/store.js";
import { filesServer } from "../../support/mcp.js";
import { AGENT, CONV, DAN, setupWorld, T, TRACE, type World } from "../helpers.js";
import { startScriptedModel, type ScriptedModel } from "../llm/scripted-model.js";

/**
 * With a language model configured, the planner sees the agent's MCP tools (name, description,
 * input schema, mode) and may ask for a call; Office checks the tool and the arguments against
 * the schema before any card or call. Real ledger, real filesystem server, a scripted model.
 */
let w: World | undefined;
let model: ScriptedModel | undefined;
let dir: string | undefined;
afterEach(async () => {
  await model?.close();
  w?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
  w = model = dir = undefined;
});

const nulls = {
  text: null,
  job_id: null,
  action: null,
  kind: null,
  title: null,
  goal: null,
  slots: null,
  choices: null,
  tool: null,
  arguments_json: null,
};
const answer = (ops: object[]) => ({
  content: JSON.stringify({ operations: ops, surfaces: null, render: null, citations: null }),
});

async function world() {
  dir = mkdtempSync(join(tmpdir(), "mcp-llm-"));
  writeFileSync(join(dir, "plan.txt"), "q3");
  model = await startScriptedModel();
  w = await setupWorld({ office: { mcpServers: [filesServer(dir)] } });
  const provider = createChatProvider({
    config: {
      baseUrl: model.baseUrl,
      model: "scripted",
      timeoutMs: 2_000,
      maxTokens: 800,
      responseFormat: "json_schema",
    },
    retryDelayMs: 10,
  });
  const office = w.newOffice({
    planner: createLlmPlanner({ provider, store: createLlmStore(w.db), clock: w.clock, ids: w.ids }),
  });
  // An admin chooses the modes: listing runs at once, writing asks first.
  const sys = { entity_id: "system_policy_agent", actor_type: "system" as const };
  const ada = { entity_id: "ent_human_ada", actor_type: "human" as const };
  const base = {
    ts: "2025-12-27T10:00:01.000Z",
    tenant_id: T,
    trace_id: "trc_modes",
    conversation_id: "cnv_workspace",
  };
  await w.ledger.append({
    tenant_id: T,
    events: [
      {
        ...base,
        event_id: "evt_reg_ada",
        event_type: "entity.registered",
        actor: sys,
        payload: { entity_id: ada.entity_id, actor_type: "human", display_name: "Ada", roles: ["admin"] },
      },
      {
        ...base,
        event_id: "evt_mode_1",
        event_type: "agent.tool_mode_set",
        actor: ada,
        payload: { agent_entity_id: AGENT, tool_name: "files.list_directory", mode: "auto" },
      },
      {
        ...base,
        event_id: "evt_mode_2",
        event_type: "agent.tool_mode_set",
        actor: ada,
        payload: { agent_entity_id: AGENT, tool_name: "files.write_file", mode: "approve" },
      },
    ],
  });
  await office.start();
  const until = Date.now() + 15_000;
  while (!office.mcpStatus().every((s) => s.state === "connected")) {
    if (Date.now() > until) throw new Error("MCP server did not connect");
    await new Promise((r) => setTimeout(r, 25));
  }
  const say = (body_text: string) =>
    office.ingestMessage({ tenant_id: T, trace_id: TRACE, conversation_id: CONV, actor_entity_id: DAN, body_text });
  return { office, say, dir: dir! };
}

describe("the language model and MCP tools", () => {
  it("sees only the tools the agent may use, and a call it asks for runs as a job", async () => {
    const { office, say, dir } = await world();
    model!.script(
      answer([
        { ...nulls, type: "call_tool", tool: "files.list_directory", arguments_json: JSON.stringify({ path: dir }) },
      ]),
    );
    const r = await say("What is in the shared folder?");
    const sent = JSON.parse(String((model!.requests[0]!.body.messages as Array<{ content: string }>)[1]!.content));
    expect(sent.agent.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      "files.list_directory",
      "files.write_file",
    ]);
    expect(sent.agent.tools.find((t: { name: string }) => t.name === "files.write_file")).toMatchObject({
      mode: "approve",
      input_schema: { type: "object" },
    });
    expect(r.job_id).toBeTruthy();
    await office.idle();
    const events = w!.events(r.job_id!);
    expect(events.map((e) => e.event_type)).toContain("tool.result");
    const done = events.find((e) => e.event_type === "job.completed")!;
    expect(JSON.stringify(done.payload)).toContain("plan.txt");
  });

  it("arguments that do not fit the schema, or a tool the agent may not use, open no job", async () => {
    const { say } = await world();
    const jobs = () => w!.events().filter((e) => e.event_type === "job.created").length;
    const before = jobs();
    model!.script(
      answer([
        {
          ...nulls,
          type: "call_tool",
          tool: "files.write_file",
          arguments_json: JSON.stringify({ content: "no path" }),
        },
      ]),
    );
    const bad = await say("Write a note");
    expect(bad.job_id).toBeUndefined();
    model!.script(
      answer([
        {
          ...nulls,
          type: "call_tool",
          tool: "files.move_file",
          arguments_json: JSON.stringify({ source: "a", destination: "b" }),
        },
      ]),
    );
    const off = await say("Move a to b");
    expect(off.job_id).toBeUndefined();
    expect(jobs()).toBe(before);
  });

  it("a call of a tool that asks first is proposed, not run", async () => {
    const { office, say, dir } = await world();
    model!.script(
      answer([
        {
          ...nulls,
          type: "call_tool",
          tool: "files.write_file",
          arguments_json: JSON.stringify({ path: join(dir, "n.txt"), content: "hi" }),
        },
      ]),
    );
    const r = await say("Write hi to n.txt");
    await office.idle();
    const types = w!.events(r.job_id!).map((e) => e.event_type);
    expect(types).toContain("job.proposed");
    expect(types).not.toContain("tool.called");
  });
});
