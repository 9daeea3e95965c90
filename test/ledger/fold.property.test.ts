import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZUblEvent } from "../../contracts/events.js";
import { JOB_STATES, TERMINAL_JOB_STATES } from "../../contracts/primitives.js";
import { createFold, foldsEqual } from "../../src/ledger/fold.js";
import { stateAfter } from "../../src/job/transitions.js";
import { evolve, type JobView } from "../../src/job/view.js";
import type { TStoredEvent } from "../../contracts/events.js";
import { createOfficeView } from "../../src/office/views/office-view.js";
import type { LedgerApi } from "../../src/ledger/index.js";
import { applyJobs } from "../../src/gateway/projections/jobs.js";
import { createTenantState } from "../../src/gateway/projections/state.js";
import type { PolicyFold } from "../../src/ledger/policy/index.js";
import { PACK, feed, happy, newEngine, type Raw } from "./policy/helpers.js";

/**
 * Random sequences of job events (valid, stale, forged, out of order, from the wrong actor)
 * go through engine + fold in random all-or-nothing batches, like the ledger appends them.
 * Properties: no accepted event ever takes a job through a transition the pack's FSM does not
 * allow, a fold rebuilt from the accepted events equals the live fold, and every other fold of
 * job state (the kernel's `evolve`, Office's view, the gateway's projection) says the same state.
 */

const T = "tnt_acme_001";
const C = "cnv_9f2a";
const JOBS = ["job_a", "job_b"];
const STATES = [...JOB_STATES];
const ACTORS = [
  { entity_id: "ent_agent_scheduler", actor_type: "agent" },
  { entity_id: "ent_human_dan", actor_type: "human" },
  { entity_id: "system_office", actor_type: "system" },
];

// The legal transitions, read from the pack's data (not from the rule code under test).
const fsmRule = PACK.policies.find((p) => p.policy_id === "policy.job_fsm")!.rules[0] as unknown as {
  transitions: [string, string][];
  same_state_allowed: string[];
  event_overrides: Record<string, { extra_transitions?: [string, string][]; restate_terminal?: string[] }>;
};
const TERMINAL = new Set<string>(TERMINAL_JOB_STATES);
function legal(eventType: string, from: string | undefined, to: string): boolean {
  if (eventType === "job.created") return from === undefined && to === "draft";
  if (from === undefined) return false;
  const o = fsmRule.event_overrides[eventType];
  if (from === to)
    return TERMINAL.has(from)
      ? (o?.restate_terminal ?? []).includes(from)
      : fsmRule.same_state_allowed.includes(eventType);
  if (TERMINAL.has(from)) return false;
  return [...fsmRule.transitions, ...(o?.extra_transitions ?? [])].some(([a, b]) => a === from && b === to);
}

type Kind =
  | "created"
  | "proposed"
  | "card_msg"
  | "approved"
  | "rejected"
  | "state_changed"
  | "progress"
  | "completed"
  | "input"
  | "tool_called"
  | "tool_result";

interface Step {
  kind: Kind;
  job: number;
  actor: number;
  next: number;
  prev: number | null; // null: the job's current state
  click: "real" | "forged" | "none";
  n: number;
  endBatch: boolean;
  failCommit: boolean;
  /** Most steps are what a well-behaved writer would send (the natural actor, a legal next state); the rest are random. */
  natural: boolean;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Kind>(
    "created",
    "proposed",
    "card_msg",
    "approved",
    "rejected",
    "state_changed",
    "state_changed",
    "progress",
    "completed",
    "input",
    "tool_called",
    "tool_result",
  ),
  job: fc.nat(JOBS.length - 1),
  actor: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(ACTORS.length - 1)),
  next: fc.nat(STATES.length - 1),
  prev: fc.oneof(fc.constant(null), fc.constant(null), fc.nat(STATES.length - 1)),
  click: fc.constantFrom<"real" | "forged" | "none">("real", "real", "forged", "none"),
  n: fc.nat(11),
  endBatch: fc.boolean(),
  failCommit: fc.nat(9).map((n) => n === 0),
  natural: fc.nat(9).map((n) => n < 8),
});

const FORMALIZE_BUTTONS = [
  { button_id: "btn_approve", label: "Approve", action: { type: "job.approve" } },
  { button_id: "btn_reject", label: "Reject", action: { type: "job.reject" } },
  { button_id: "btn_changes", label: "Request changes", action: { type: "job.request_changes" } },
];
const TRACKING_BUTTONS = [
  { button_id: "btn_input", label: "Provide info", action: { type: "job.provide_input" } },
  { button_id: "btn_cancel", label: "Cancel", action: { type: "job.cancel" } },
  { button_id: "btn_ack", label: "Got it", action: { type: "job.ack" } },
];

/** What a well-behaved writer would send next for a job in this state. */
const NATURAL: Record<string, Kind[]> = {
  none: ["created"],
  draft: ["proposed"],
  proposed: ["approved", "approved", "approved", "rejected"],
  approved: ["state_changed"],
  in_progress: ["state_changed", "progress", "tool_called", "completed"],
  waiting_input: ["card_msg", "input", "state_changed", "completed"],
  completed: ["card_msg", "state_changed", "completed", "progress"],
  failed: ["completed", "state_changed", "card_msg", "input"],
  cancelled: ["completed", "state_changed", "card_msg", "approved"],
  rejected: ["completed", "state_changed", "card_msg", "tool_called"],
};

/** Builds an event from a step, reading the fold only to make "real" clicks and "current" prev states plausible. */
function build(step: Step, i: number, fold: PolicyFold, lastCard: Map<string, Raw>): Raw {
  const job = JOBS[step.job]!;
  const current = fold.jobState(T, job) ?? "draft";
  const offered = lastCard.get(job)?.card_type === "job.formalize";
  const natural =
    current === "proposed" && !offered ? (["card_msg"] as Kind[]) : NATURAL[fold.jobState(T, job) ?? "none"]!;
  const kind = step.natural ? natural[step.n % natural.length]! : step.kind;
  const humanKinds: Kind[] = ["approved", "rejected", "input"];
  const actor = step.natural ? ACTORS[humanKinds.includes(kind) ? 1 : 0]! : ACTORS[step.actor]!;
  const ts = new Date(Date.parse("2025-12-27T11:00:00.000Z") + i * 1000).toISOString();
  const base = {
    event_id: `evt_p_${i}`,
    ts,
    tenant_id: T,
    trace_id: "trc_prop",
    conversation_id: C,
    job_id: job,
    actor,
  };
  const card = (type: "job.formalize" | "job.tracking" | "job.finished", state: string, extra: Raw) => ({
    card_id: `card_${type.slice(4)}_${job}_${i}`,
    job_id: job,
    card_type: type,
    version: "v1",
    title: "Prop job",
    state,
    created_at: ts,
    conversation_id: C,
    tenant_id: T,
    owner: { entity_id: "ent_agent_scheduler", display_name: "Office Scheduler", actor_type: "agent" },
    author: { entity_id: "ent_agent_scheduler", display_name: "Office Scheduler", actor_type: "agent" },
    ...extra,
  });
  const withJob = (buttons: Raw[]) => buttons.map((b) => ({ ...b, action: { ...b.action, job_id: job } }));
  const clickMode = step.natural ? "real" : step.click;
  const clickOf = (want: string): Raw => {
    if (clickMode === "none") return {};
    const c = lastCard.get(job);
    const button = c?.buttons.find((b: Raw) => b.action.type === want);
    if (clickMode === "forged" || !c || !button)
      return { card_id: c?.card_id ?? "card_forged", button_id: "btn_forged", action: { type: want, job_id: job } };
    return { card_id: c.card_id, button_id: button.button_id, action: { type: want, job_id: job } };
  };
  const onward = fsmRule.transitions.filter(([a]) => a === current).map(([, b]) => b);
  const state = step.natural && onward.length ? onward[step.next % onward.length]! : STATES[step.next]!;
  switch (kind) {
    case "created":
      return {
        ...base,
        event_type: "job.created",
        payload: { job_id: job, title: "Prop job", conversation_id: C, owner_entity_id: "ent_agent_scheduler" },
      };
    case "proposed":
      return {
        ...base,
        event_type: "job.proposed",
        payload: {
          job_id: job,
          proposed_card: card("job.formalize", "proposed", {
            job: { job_id: job, goal: "Do the thing" },
            buttons: withJob(FORMALIZE_BUTTONS),
          }),
        },
      };
    case "card_msg": {
      const c =
        current !== "proposed"
          ? card("job.tracking", current, {
              progress: { status_line: "Working", waiting_on: [{ entity_id: "ent_human_dan", display_name: "Dan" }] },
              buttons: withJob(TRACKING_BUTTONS),
            })
          : lastCard.get(`${job}:embedded`);
      return {
        ...base,
        event_type: "message.sent",
        payload: {
          message_id: `msg_${i}`,
          kind: "card",
          card:
            c ??
            card("job.formalize", "proposed", { job: { job_id: job, goal: "x" }, buttons: withJob(FORMALIZE_BUTTONS) }),
        },
      };
    }
    case "approved":
      return { ...base, event_type: "job.approved", payload: { job_id: job, ...clickOf("job.approve") } };
    case "rejected":
      return { ...base, event_type: "job.rejected", payload: { job_id: job, ...clickOf("job.reject") } };
    case "state_changed":
      return {
        ...base,
        event_type: "job.state_changed",
        payload: {
          job_id: job,
          prev_state: step.natural || step.prev === null ? current : STATES[step.prev],
          next_state: state,
          ...(base.actor.actor_type === "human" ? clickOf("job.cancel") : {}),
        },
      };
    case "progress":
      return {
        ...base,
        event_type: "job.progress",
        payload: {
          job_id: job,
          tracking_card: card("job.tracking", state, {
            progress: { status_line: "Working", waiting_on: [{ entity_id: "ent_human_dan", display_name: "Dan" }] },
            buttons: withJob(TRACKING_BUTTONS),
          }),
        },
      };
    case "completed":
      return {
        ...base,
        event_type: "job.completed",
        payload: {
          job_id: job,
          finished_card: card("job.finished", state, {
            outcome: {
              result:
                step.natural && !TERMINAL.has(current)
                  ? "completed"
                  : ["completed", "failed", "cancelled", "rejected"][step.n % 4],
              summary: "Done.",
            },
            artifacts: [],
            buttons: withJob([{ button_id: "btn_ok", label: "Accept", action: { type: "job.ack" } }]),
          }),
        },
      };
    case "input":
      return {
        ...base,
        event_type: "job.input_provided",
        payload: { job_id: job, inputs: { timezone: "Europe/Lisbon" }, ...clickOf("job.provide_input") },
      };
    case "tool_called":
      return {
        ...base,
        event_type: "tool.called",
        payload: {
          tool_call_id: `tcall_${step.n % 4}`,
          tool_name: "calendar.create_invite",
          tool_version: "v1",
          inputs: { duration_minutes: 30 },
          pii_policy: { redactions_applied: [], hashes_applied: [], raw_pii_stored: false },
          idempotency_key: `idem:${job}:calendar.create_invite:v1`,
          ...(step.n % 4 > 0 ? { attempt: (step.n % 4) + 1, retry_of_tool_call_id: `tcall_${(step.n % 4) - 1}` } : {}),
        },
      };
    case "tool_result":
      return {
        ...base,
        event_type: "tool.result",
        payload: {
          tool_call_id: `tcall_${step.n % 4}`,
          tool_name: "calendar.create_invite",
          status: "success",
          latency_ms: 10,
        },
      };
  }
}

function setupFold(): { fold: PolicyFold; setup: Raw[] } {
  const fold = createFold();
  const setup = happy().slice(0, 3); // Dan, the Scheduler, cnv_9f2a
  feed(newEngine(), fold, setup);
  return { fold, setup };
}

describe("fold + engine over random job event sequences (fast-check)", () => {
  it("never reaches a state the FSM does not allow; the rebuilt fold equals the live one", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 80, size: "max" }), (steps) => {
        const engine = newEngine();
        const { fold, setup } = setupFold();
        const accepted: Raw[] = [...setup];
        const lastCard = new Map<string, Raw>();
        let pending: Raw[] = [];
        let mark = fold.mark();
        const cardsBefore = new Map(lastCard);
        let refused = false;

        const endBatch = (failCommit: boolean) => {
          if (refused || failCommit) {
            fold.rollbackTo(mark);
            lastCard.clear();
            for (const [k, v] of cardsBefore) lastCard.set(k, v);
          } else {
            fold.release(mark);
            accepted.push(...pending);
            cardsBefore.clear();
            for (const [k, v] of lastCard) cardsBefore.set(k, v);
          }
          pending = [];
          refused = false;
          mark = fold.mark();
        };

        steps.forEach((step, i) => {
          if (!refused) {
            const raw = build(step, i, fold, lastCard);
            const jobId = raw.job_id as string;
            const before = fold.jobState(T, jobId);
            const d = engine.check(fold, raw);
            if (d.ok) {
              fold.apply(d.event);
              pending.push(d.event);
              const after = fold.jobState(T, jobId);
              if (stateAfter(d.event)) {
                expect(STATES).toContain(after);
                expect(
                  legal(d.event.event_type, before, after as string),
                  `${d.event.event_type}: ${before} → ${after}`,
                ).toBe(true);
              } else {
                expect(after).toBe(before);
              }
              if (d.event.event_type === "message.sent" && d.event.payload.card)
                lastCard.set(jobId, d.event.payload.card);
              if (d.event.event_type === "job.proposed")
                lastCard.set(`${jobId}:embedded`, d.event.payload.proposed_card);
            } else {
              refused = true; // the whole batch goes
            }
          }
          if (step.endBatch || i === steps.length - 1) endBatch(step.failCommit);
        });

        const rebuilt = createFold();
        for (const e of accepted) rebuilt.apply(ZUblEvent.parse(e));
        expect(rebuilt.snapshot()).toEqual(fold.snapshot());
        expect(foldsEqual(rebuilt, fold)).toBe(true);
        for (const j of JOBS) {
          const s = fold.jobState(T, j);
          if (s !== undefined) expect(STATES).toContain(s);
        }
        // Every fold of job state reads the same events the same way: the ledger's, the job
        // kernel's `evolve` (Office's jobs), Office's summaries and the gateway's projection.
        const stored = accepted.map((e) => ZUblEvent.parse(e) as TStoredEvent);
        const view = createOfficeView({
          ledger: {
            replay: (fn: (e: TStoredEvent) => void) => stored.forEach(fn),
            subscribe: () => () => {},
          } as unknown as LedgerApi,
        });
        const projection = createTenantState(T);
        for (const e of stored) applyJobs(projection, e);
        for (const j of JOBS) {
          const ledgerSays = fold.jobState(T, j);
          const mine = stored.filter((e) => e.job_id === j || (e.payload as { job_id?: string }).job_id === j);
          const kernel = mine.reduce<JobView | null>((v, e) => evolve(v, e), null);
          expect(kernel?.state, `evolve ${j}`).toBe(ledgerSays);
          expect(view.job(T, j)?.state, `Office's view ${j}`).toBe(ledgerSays);
          if (ledgerSays !== undefined) expect(projection.jobs.get(j)?.state, `gateway ${j}`).toBe(ledgerSays);
        }
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it("the generator does reach deep states (sanity: the property is not vacuous)", () => {
    const reached = new Set<string>();
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 20, maxLength: 80, size: "max" }), (steps) => {
        const engine = newEngine();
        const { fold } = setupFold();
        const lastCard = new Map<string, Raw>();
        steps.forEach((step, i) => {
          const raw = build(step, i, fold, lastCard);
          const d = engine.check(fold, raw);
          if (!d.ok) return;
          fold.apply(d.event);
          if (d.event.event_type === "message.sent" && d.event.payload.card)
            lastCard.set(raw.job_id, d.event.payload.card);
          if (d.event.event_type === "job.proposed")
            lastCard.set(`${raw.job_id}:embedded`, d.event.payload.proposed_card);
          for (const j of JOBS) {
            const s = fold.jobState(T, j);
            if (s) reached.add(s);
          }
        });
      }),
      { numRuns: 400, seed: 42 },
    );
    expect([...reached].sort()).toEqual([...STATES].sort());
  }, 120_000);
});
