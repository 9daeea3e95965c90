import { readFileSync } from "node:fs";
import { openDatabase, type Db } from "../../../src/shared/db.js";
import { createManualClock } from "../../../src/shared/clock.js";
import type { PlanFrame, PlanJobRef } from "../../../src/office/planner/planner.js";
import { createChatProvider } from "../../../src/office/llm/provider.js";
import { createLlmStore, type LlmStore } from "../../../src/office/llm/store.js";
import { createLlmPlanner, type LlmPlanner } from "../../../src/office/llm/llm-planner.js";
import { startScriptedModel, type ScriptedModel } from "./scripted-model.js";

export const REPLIES = JSON.parse(
  readFileSync(new URL("../../../fixtures/llm/scripted-replies.json", import.meta.url), "utf8"),
) as Record<string, string>;

const JOBS: PlanJobRef[] = [
  { job_id: "job_maria", title: "Schedule call with Maria", state: "waiting_input", conversation_id: "cnv_1" },
  { job_id: "job_invoice", title: "Send invoice to Acme", state: "proposed", conversation_id: "cnv_1" },
  { job_id: "job_report", title: "Compile weekly report", state: "completed", conversation_id: "cnv_1" },
];

export function frame(text: string, over: Partial<PlanFrame> = {}): PlanFrame {
  return {
    tenant_id: "ten_1",
    conversation_id: "cnv_1",
    trace_id: "trc_1",
    now: "2025-12-27T10:15:00.000Z",
    default_timezone: "Europe/Lisbon",
    agent: {
      entity_id: "ent_agent",
      display_name: "Ava",
      role: "Scheduler",
      allowed_tools: ["calendar.create_invite"],
    },
    sender: { entity_id: "ent_dan", display_name: "Dan" },
    text,
    jobs: JOBS,
    ...over,
  };
}

export interface Harness {
  model: ScriptedModel;
  db: Db;
  store: LlmStore;
  planner: LlmPlanner;
  newPlanner(opts?: { logFull?: boolean }): LlmPlanner;
  close(): Promise<void>;
}

export async function startHarness(
  opts: { timeoutMs?: number; logFull?: boolean; apiKey?: string } = {},
): Promise<Harness> {
  const model = await startScriptedModel();
  const db = openDatabase({ path: ":memory:" });
  const store = createLlmStore(db);
  const clock = createManualClock();
  const provider = createChatProvider({
    config: {
      baseUrl: model.baseUrl,
      model: "scripted",
      timeoutMs: opts.timeoutMs ?? 2_000,
      maxTokens: 800,
      responseFormat: "json_schema",
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    },
    retryDelayMs: 10,
  });
  const newPlanner = (o: { logFull?: boolean } = {}) =>
    createLlmPlanner({ provider, store, clock, logFull: o.logFull ?? opts.logFull ?? false });
  return {
    model,
    db,
    store,
    planner: newPlanner(),
    newPlanner,
    async close() {
      await model.close();
      db.close();
    },
  };
}
