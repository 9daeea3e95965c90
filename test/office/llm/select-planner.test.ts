import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/shared/db.js";
import { createManualClock } from "../../../src/shared/clock.js";
import type { Planner } from "../../../src/office/planner/planner.js";
import { selectPlanner } from "../../../src/office/llm/select-planner.js";
import { startScriptedModel, type ScriptedModel } from "./scripted-model.js";

const rules: Planner = { name: "rules", plan: async () => ({ type: "chat_reply", text: "rules" }) };
const logs: Array<[string, string]> = [];
const logger = {
  info: (_o: unknown, m: string) => void logs.push(["info", m]),
  warn: (_o: unknown, m: string) => void logs.push(["warn", m]),
};
let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  logs.length = 0;
});

const settings = (baseUrl: string, model: string) => ({
  baseUrl,
  model,
  timeoutMs: 5_000,
  maxTokens: 1_500,
  responseFormat: "json_schema" as const,
  logFull: false,
});

describe("planner selection at boot", () => {
  const db = openDatabase({ path: ":memory:" });
  const clock = createManualClock();
  it("rules by default", async () => {
    expect((await selectPlanner({ llm: undefined, rules, db, clock, logger })).active).toBe("rules");
  });
  it("llm when the model answers at boot", async () => {
    model = await startScriptedModel();
    const s = await selectPlanner({ llm: settings(model.baseUrl, "scripted"), rules, db, clock, logger });
    expect(s.active).toBe("llm");
    expect(s.planner.name).toBe("llm");
    expect(model.requests.map((r) => r.path)).toEqual(["/v1/models"]);
  });
  it("falls back to rules, with a warning, when the model is unreachable", async () => {
    model = await startScriptedModel();
    const url = model.baseUrl;
    await model.close();
    model = undefined;
    const s = await selectPlanner({ llm: settings(url, "m"), rules, db, clock, logger });
    expect(s).toMatchObject({ active: "rules", planner: rules });
    expect(s.fallback_reason).toContain("cannot reach");
    expect(logs).toEqual([["warn", "LLM unreachable at boot; using the rules planner"]]);
  });
});
