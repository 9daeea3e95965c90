import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import type { Planner } from "../planner/planner.js";
import type { LlmConfig } from "./config.js";
import { createLlmPlanner, type LlmPlanner } from "./llm-planner.js";
import { createChatProvider } from "./provider.js";
import { createLlmStore } from "./store.js";
import type { IsActionAllowed } from "./target-labels.js";

interface PlannerLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface SelectPlannerDeps {
  /** The validated settings (src/config.ts); absent: the rules planner. */
  llm: LlmConfig | undefined;
  rules: Planner;
  db: Db;
  clock: Pick<Clock, "iso" | "now">;
  logger: PlannerLogger;
  fetch?: typeof fetch;
  isActionAllowed?: IsActionAllowed;
}

export interface PlannerSelection {
  planner: Planner;
  /** What `/healthz` reports. */
  active: "rules" | "llm";
  /** Why the rules planner is active although `llm` was asked for. */
  fallback_reason?: string;
  llm?: LlmPlanner;
}

/**
 * Boot-time choice between the rules and the LLM planner. `OFFICE_PLANNER=llm` with a model
 * that does not answer at boot falls back to rules with a warning: the product keeps working,
 * and `/healthz` says which planner is in charge.
 */
export async function selectPlanner(deps: SelectPlannerDeps): Promise<PlannerSelection> {
  const config = deps.llm;
  if (!config) return { planner: deps.rules, active: "rules" };
  const provider = createChatProvider({ config, clock: deps.clock, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const probe = await provider.probe();
  if (!probe.ok) {
    deps.logger.warn(
      { reason: probe.reason, base_url: config.baseUrl, model: config.model },
      "LLM unreachable at boot; using the rules planner",
    );
    return { planner: deps.rules, active: "rules", fallback_reason: probe.reason };
  }
  const llm = createLlmPlanner({
    provider,
    store: createLlmStore(deps.db),
    clock: deps.clock,
    logFull: config.logFull,
    ...(deps.isActionAllowed ? { isActionAllowed: deps.isActionAllowed } : {}),
  });
  deps.logger.info({ base_url: config.baseUrl, model: config.model, log_full: config.logFull }, "LLM planner active");
  return { planner: llm, active: "llm", llm };
}
