import { z } from "zod";
import { JOB_STATES } from "../../../../contracts/primitives.js";
import { stateAfter } from "../../../job/transitions.js";
import { fieldPath } from "../paths.js";
import { jobIdOf, type RuleType } from "../rule.js";

const ZState = z.enum(JOB_STATES);
const ZPair = z.tuple([ZState, ZState]);

const ZSpec = z.strictObject({
  type: z.literal("fsm"),
  entity: z.literal("job"),
  state_field: z.string(),
  transitions: z.array(ZPair).min(1),
  terminal_states: z.array(ZState),
  /** Where an event states the state it believes the job is in (job.state_changed). */
  prev_state_field: z.string().optional(),
  /** current state → other prev_state values accepted for it. */
  prev_state_aliases: z.partialRecord(ZState, z.array(ZState)).optional(),
  /** Event types that may restate a non-terminal current state (a no-op). */
  same_state_allowed: z.array(z.string()).optional(),
  /** Per event type: extra legal transitions, and terminal states it may restate. */
  event_overrides: z
    .record(
      z.string(),
      z.strictObject({
        extra_transitions: z.array(ZPair).optional(),
        restate_terminal: z.array(ZState).optional(),
        note: z.string().optional(),
      }),
    )
    .optional(),
  note: z.string().optional(),
  event_types: z.array(z.string()).optional(),
});
type Spec = z.infer<typeof ZSpec>;

/**
 * The job state machine. What state an event leads to is the job kernel's `stateAfter` (shared with every
 * fold); this rule decides whether (current → next) is legal. Terminal states have no way out.
 */
export const fsm: RuleType<Spec> = {
  schema: ZSpec,
  shape: false,
  compile(spec) {
    const key = (a: string, b: string) => `${a}>${b}`;
    const legal = new Set(spec.transitions.map(([a, b]) => key(a, b)));
    const terminal = new Set<string>(spec.terminal_states);
    const same = new Set(spec.same_state_allowed ?? []);
    const aliases: Partial<Record<string, readonly string[]>> = spec.prev_state_aliases ?? {};
    const prevField = spec.prev_state_field ? fieldPath(spec.prev_state_field) : undefined;
    const overrides = new Map(
      Object.entries(spec.event_overrides ?? {}).map(([t, o]) => [
        t,
        {
          extra: new Set((o.extra_transitions ?? []).map(([a, b]) => key(a, b))),
          restate: new Set<string>(o.restate_terminal ?? []),
        },
      ]),
    );
    return (ctx) => {
      const jobId = jobIdOf(ctx.event);
      if (!jobId) return "job_id is required";
      const job = ctx.fold.job(ctx.tenantId, jobId);
      if (ctx.eventType === "job.created") return job ? "job_id already names a job" : null;
      if (!job) return "job_id does not name a job of this tenant";
      const next = stateAfter(ctx.event as { event_type: string; payload?: unknown });
      if (!next) return null; // not a state-moving event
      const cur = job.state;
      const prev = prevField?.get(ctx.event);
      if (typeof prev === "string" && prev !== cur && !(aliases[cur]?.includes(prev) ?? false)) {
        return `${prevField?.path} is ${prev} but the job is ${cur}`;
      }
      const o = overrides.get(ctx.eventType);
      if (terminal.has(cur)) {
        if (cur === next && o?.restate.has(cur)) return null;
        return `the job is ${cur}, a terminal state: no ${ctx.eventType} to ${next}`;
      }
      if (cur === next) return same.has(ctx.eventType) ? null : `the job is already ${cur}`;
      if (legal.has(key(cur, next)) || o?.extra.has(key(cur, next))) return null;
      return `illegal transition ${cur} → ${next} (${ctx.eventType})`;
    };
  },
};
