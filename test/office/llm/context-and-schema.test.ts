import { describe, expect, it } from "vitest";
import { buildContextInput, pendingActions } from "../../../src/office/llm/context-input.js";
import { buildWireSchema } from "../../../src/office/llm/response-schema.js";
import { redactPacket, makeDocuments, PROTOCOL, type RequestPacket } from "../../../src/office/llm/packet.js";
import { ConfigError, loadConfig } from "../../../src/config.js";

const jobs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    job_id: `job_${i}`,
    title: `Job ${i}`,
    state: i % 2 ? "proposed" : "waiting_input",
    conversation_id: "cnv_1",
  }));

describe("context_input", () => {
  it("keeps the first 8 conversations, 12 jobs and 8 actions and reports what it cut", () => {
    const j = jobs(20);
    const c = buildContextInput({
      anchor: { job_id: "job_0", conversation_id: "cnv_1" },
      conversations: Array.from({ length: 10 }, (_, i) => ({ conversation_id: `cnv_${i}`, title: `C${i}` })),
      jobs: j,
      actions: pendingActions(j),
    })!;
    expect(c.conversations).toHaveLength(8);
    expect(c.jobs).toHaveLength(12);
    expect(c.jobs![0]).toEqual({ id: "job_0", title: "Job 0", state: "waiting_input", conversation_id: "cnv_1" });
    expect(c.actions).toHaveLength(8);
    expect(c.actions![1]).toMatchObject({
      preview: "Approve or reject “Job 1”",
      source_type: "card_button",
      job_id: "job_1",
    });
    expect(c.truncated).toEqual({ conversations: 2, jobs: 8, actions: 12 });
  });

  it("has no truncated block when nothing was cut, and is null when there is nothing at all", () => {
    expect(
      buildContextInput({ anchor: { job_id: null, conversation_id: "cnv_1" }, jobs: jobs(3) })!.truncated,
    ).toBeUndefined();
    expect(buildContextInput({ anchor: { job_id: null, conversation_id: null } })).toBeNull();
  });
});

describe("wire schema for the model", () => {
  const schema = buildWireSchema(["job_a", "job_b"], ["doc:1"]);
  function walk(node: unknown, depth: number, visit: (o: Record<string, any>, depth: number) => void) {
    if (!node || typeof node !== "object") return;
    const o = node as Record<string, any>;
    const isObject = o.type === "object";
    if (isObject) visit(o, depth + 1);
    for (const v of Object.values(o)) walk(v, isObject ? depth + 1 : depth, visit);
  }
  it("uses the portable subset: every object closed, every field required, at most 5 object levels", () => {
    let maxDepth = 0;
    let objects = 0;
    walk(schema, 0, (o, depth) => {
      objects++;
      maxDepth = Math.max(maxDepth, depth);
      expect(o.additionalProperties).toBe(false);
      expect([...o.required].sort()).toEqual(Object.keys(o.properties).sort());
    });
    expect(objects).toBeGreaterThan(10);
    expect(maxDepth).toBeLessThanOrEqual(5);
    expect(JSON.stringify(schema)).not.toContain("$ref");
    expect(schema).not.toHaveProperty("$schema");
    expect(JSON.stringify(schema)).not.toContain("minimum");
  });
  it("lists candidate ids as an enum, and allows no id at all when there are none", () => {
    const op = (schema as any).properties.operations.items.properties;
    expect(op.job_id.anyOf[0].enum).toEqual(["job_a", "job_b"]);
    expect(op.type.enum).toEqual([
      "chat_reply",
      "propose_job",
      "provide_input",
      "ask_clarification",
      "job_action",
      "call_tool",
    ]);
    const none = buildWireSchema([], []) as any;
    expect(none.properties.operations.items.properties.job_id).toEqual({ type: "null" });
    // No tool offered: the model cannot name one; offered tools are an enum like job ids.
    expect(none.properties.operations.items.properties.tool).toEqual({ type: "null" });
    const withTools = buildWireSchema([], [], ["files.list_directory"]) as any;
    expect(withTools.properties.operations.items.properties.tool.anyOf[0].enum).toEqual(["files.list_directory"]);
  });
});

describe("packet redaction", () => {
  const packet: RequestPacket = {
    protocol: PROTOCOL,
    id: "llmreq_1",
    type: "request",
    created_at: "2026-01-01T00:00:00.000Z",
    conversation: { id: "cnv_1", turn: 3 },
    sender: { role: "agent" },
    trace: { trace_id: "trc" },
    input: {
      user_message: {
        id: "m",
        text: "my key is sk-abcdefghijklmnop0123 and mail me at dan@example.com",
        sender_display_name: "Dan",
      },
      task: { name: "office.plan_turn", args: { default_timezone: "UTC", now: "x" } },
      references: [],
      candidate_job_ids: [],
      default_job_id: null,
      default_reason: null,
    },
    agent: { entity_id: "a", display_name: "Ava", role: null, allowed_tools: [], tools: [] },
    context: {
      context_input: null,
      documents: makeDocuments([
        { doc_id: "doc:1", kind: "web", text: "Long secret page text. Authorization: Bearer abcdefghijklmnop" },
      ]),
    },
    output: { format: "json" },
  };
  it("default: documents become digest + preview, secrets and emails are masked", () => {
    const stored = JSON.stringify(redactPacket(packet, false));
    expect(stored).not.toContain("sk-abcdefghijklmnop0123");
    expect(stored).not.toContain("dan@example.com");
    expect(stored).not.toContain("Bearer abcdefghijklmnop");
    expect(stored).toMatch(/"digest":"sha256:[0-9a-f]{64}"/);
    expect(stored).toContain('"trust":"untrusted"');
  });
  it("full: documents kept, secrets still masked", () => {
    const stored = JSON.stringify(redactPacket(packet, true));
    expect(stored).toContain("Long secret page text");
    expect(stored).not.toContain("sk-abcdefghijklmnop0123");
  });
});

describe("config", () => {
  it("takes the OFFICE_LLM_* variables from the one config schema: values as given, defaults filled, nothing clamped", () => {
    const c = loadConfig({
      OFFICE_PLANNER: "llm",
      OFFICE_LLM_BASE_URL: "http://127.0.0.1:11434/v1/",
      OFFICE_LLM_MODEL: "qwen3:8b",
      OFFICE_LLM_TIMEOUT_MS: "300000",
      OFFICE_LLM_EXTRA_BODY: '{"think":false}',
    });
    expect(c.office.llm).toEqual({
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "qwen3:8b",
      timeoutMs: 300_000,
      maxTokens: 1500,
      responseFormat: "json_schema",
      extraBody: { think: false },
      logFull: false,
    });
    const refused = (env: Record<string, string>, variable: string, says: RegExp) => {
      const run = () =>
        loadConfig({ OFFICE_PLANNER: "llm", OFFICE_LLM_BASE_URL: "http://x", OFFICE_LLM_MODEL: "m", ...env });
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(says);
      try {
        run();
      } catch (e) {
        expect((e as ConfigError).variable).toBe(variable);
      }
    };
    refused({ OFFICE_LLM_TIMEOUT_MS: "999999" }, "OFFICE_LLM_TIMEOUT_MS", /between 1000 and 600000/);
    refused({ OFFICE_LLM_TIMEOUT_MS: "10" }, "OFFICE_LLM_TIMEOUT_MS", /between 1000 and 600000/);
    refused({ OFFICE_LLM_MAX_TOKENS: "9000" }, "OFFICE_LLM_MAX_TOKENS", /between 64 and 8000/);
    refused({ OFFICE_LLM_BASE_URL: "file:///x" }, "OFFICE_LLM_BASE_URL", /http:\/\/ or https:\/\/ URL/);
    refused({ OFFICE_LLM_EXTRA_BODY: "[1]" }, "OFFICE_LLM_EXTRA_BODY", /JSON object/);
    refused({ OFFICE_LLM_RESPONSE_FORMAT: "yaml" }, "OFFICE_LLM_RESPONSE_FORMAT", /one of json_schema, json_object/);
    expect(() => loadConfig({ OFFICE_PLANNER: "llm", OFFICE_LLM_MODEL: "m" })).toThrow(
      /OFFICE_LLM_BASE_URL is required/,
    );
  });
});
