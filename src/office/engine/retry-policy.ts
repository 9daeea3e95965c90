import type { Clock } from "../../shared/clock.js";
import type { ToolErrorCode } from "../tools/tool.js";

/**
 * The seed's failure rules as pure decisions, plus the per-tenant, per-provider circuit
 * breaker. Attempt 1 runs at once; attempts 2–4 wait 10 s, 60 s and 5 min; then escalate.
 */
export const DEFAULT_RETRY_SCHEDULE_MS = [0, 10_000, 60_000, 300_000] as const;

export type FailureDecision =
  | { kind: "retry"; delayMs: number; attempt: number }
  | { kind: "wait_input"; reason_code: "provider_auth_required" | "invalid_input" }
  | { kind: "fail"; reason_code: string };

export function decideAfterFailure(opts: {
  code: ToolErrorCode;
  attempt: number;
  schedule: readonly number[];
  breakerOpen: boolean;
  suggestedWaitSeconds?: number;
  /** UNKNOWN earlier in this job: the seed retries UNKNOWN once, then treats it as unavailable. */
  priorUnknowns: number;
}): FailureDecision {
  if (opts.code === "PROVIDER_AUTH_REQUIRED") return { kind: "wait_input", reason_code: "provider_auth_required" };
  if (opts.code === "INVALID_INPUT") return { kind: "wait_input", reason_code: "invalid_input" };
  if (opts.breakerOpen) return { kind: "fail", reason_code: "provider_circuit_open" };
  const next = opts.attempt + 1;
  if (next > opts.schedule.length) {
    const why =
      opts.code === "PROVIDER_TIMEOUT"
        ? "provider_timeout"
        : opts.code === "PROVIDER_RATE_LIMIT"
          ? "provider_rate_limited"
          : "provider_unavailable";
    return { kind: "fail", reason_code: `${why}_retries_exhausted` };
  }
  const delay = Math.max(opts.schedule[next - 1] ?? 0, (opts.suggestedWaitSeconds ?? 0) * 1000);
  return { kind: "retry", delayMs: delay, attempt: next };
}

/** Failures weigh 1; "unavailable" (and repeated unknown) weigh 2, so the breaker opens sooner. */
export function failureWeight(code: ToolErrorCode, priorUnknowns: number): number {
  if (code === "PROVIDER_UNAVAILABLE") return 2;
  if (code === "UNKNOWN" && priorUnknowns > 0) return 2;
  if (code === "PROVIDER_AUTH_REQUIRED" || code === "INVALID_INPUT" || code === "CANCELLED") return 0;
  return 1;
}

export interface CircuitBreaker {
  /** `at` defaults to now; boot passes the failure's own time from the ledger. */
  record(tenantId: string, provider: string, weight: number, at?: number): void;
  isOpen(tenantId: string, provider: string): boolean;
  reset(tenantId: string, provider: string): void;
}

export function createCircuitBreaker(deps: { clock: Clock; threshold?: number; windowMs?: number }): CircuitBreaker {
  const threshold = deps.threshold ?? 10;
  const windowMs = deps.windowMs ?? 5 * 60_000;
  const failures = new Map<string, Array<{ at: number; weight: number }>>();
  const recent = (key: string) => {
    const since = deps.clock.now() - windowMs;
    const list = (failures.get(key) ?? []).filter((f) => f.at > since);
    failures.set(key, list);
    return list;
  };
  return {
    record(t, p, weight, at) {
      if (weight <= 0) return;
      recent(`${t}|${p}`).push({ at: at ?? deps.clock.now(), weight });
    },
    isOpen: (t, p) => recent(`${t}|${p}`).reduce((s, f) => s + f.weight, 0) >= threshold,
    reset: (t, p) => void failures.delete(`${t}|${p}`),
  };
}
