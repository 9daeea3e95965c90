import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import type { Planner } from "../planner/planner.js";
import { readLlmConfig } from "./config.js";
import { createLlmPlanner, type LlmPlanner } from "./llm-planner.js";
import { createChatProvider } from "./provider.js";
import { createLlmStore } from "./store.js";
import type { IsActionAllowed } from "./target-labels.js";

interface PlannerLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface SelectPlannerDeps {
  env: Record<string, string | undefined>;
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
  if ((deps.env.OFFICE_PLANNER ?? "rules") !== "llm") return { planner: deps.rules, active: "rules" };
  const cfg = readLlmConfig(deps.env);
  if (!cfg.ok) {
    deps.logger.warn({ reason: cfg.reason }, "OFFICE_PLANNER=llm but the LLM is not configured; using the rules planner");
    return { planner: deps.rules, active: "rules", fallback_reason: cfg.reason };
  }
  const provider = createChatProvider({ config: cfg.config, clock: deps.clock, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const probe = await provider.probe();
  if (!probe.ok) {
    deps.logger.warn({ reason: probe.reason, base_url: cfg.config.baseUrl, model: cfg.config.model }, "LLM unreachable at boot; using the rules planner");
    return { planner: deps.rules, active: "rules", fallback_reason: probe.reason };
  }
  const llm = createLlmPlanner({
    provider,
    store: createLlmStore(deps.db),
    clock: deps.clock,
    logFull: cfg.config.logFull,
    ...(deps.isActionAllowed ? { isActionAllowed: deps.isActionAllowed } : {}),
  });
  deps.logger.info({ base_url: cfg.config.baseUrl, model: cfg.config.model, log_full: cfg.config.logFull }, "LLM planner active");
  return { planner: llm, active: "llm", llm };
}
