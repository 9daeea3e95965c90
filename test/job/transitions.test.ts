import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JOB_STATES, TERMINAL_JOB_STATES, type TJobState } from "../../contracts/primitives.js";
import {
  ACTIONS_BY_STATE,
  FINISH_EXTRA_TRANSITIONS,
  JOB_TRANSITIONS,
  canMove,
  isTerminalState,
  stateAfter,
} from "../../src/job/transitions.js";

/**
 * The job kernel's table is the policy pack's: the pack states the machine as data and the
 * ledger enforces it; the kernel states it as code and every module folds and decides by it.
 * Read straight from the fixture (not through the engine under test).
 */
const pack = JSON.parse(readFileSync(new URL("../../fixtures/policy-pack.v1.json", import.meta.url), "utf8")) as {
  policies: Array<{ policy_id: string; rules: Array<Record<string, unknown>> }>;
};
const policy = (id: string) => pack.policies.find((p) => p.policy_id === id)!;
const fsm = policy("policy.job_fsm").rules[0] as {
  transitions: [string, string][];
  terminal_states: string[];
  prev_state_aliases: Record<string, string[]>;
  event_overrides: Record<string, { extra_transitions?: [string, string][] }>;
};
/** event type → the states in which the pack accepts it (policy.job_action_state). */
const allowedIn = new Map<string, string[]>();
for (const r of policy("policy.job_action_state").rules as Array<{ event_types: string[]; allowed: string[] }>)
  for (const t of r.event_types) allowedIn.set(t, r.allowed);

const pairs = (list: ReadonlyArray<readonly [string, string]>) => list.map(([a, b]) => `${a}>${b}`).sort();

describe("the job kernel's transition table", () => {
  it("is the policy pack's, move for move", () => {
    expect(pairs(JOB_TRANSITIONS)).toEqual(pairs(fsm.transitions));
    expect(pairs(FINISH_EXTRA_TRANSITIONS)).toEqual(
      pairs(fsm.event_overrides["job.completed"]?.extra_transitions ?? []),
    );
    expect([...fsm.terminal_states].sort()).toEqual([...TERMINAL_JOB_STATES].sort());
    for (const s of JOB_STATES) expect(isTerminalState(s), s).toBe(fsm.terminal_states.includes(s));
  });

  it("offers a click only where the pack accepts what the click records", () => {
    // What each click writes when it is accepted: events that must be allowed in the state, and
    // the state it moves the job to (a follow-up or a retry of a failed job is a new job).
    const records = (action: string, from: TJobState): { events: string[]; to?: TJobState } => {
      switch (action) {
        case "job.approve":
          return { events: [], to: "approved" };
        case "job.reject":
          return { events: [], to: "rejected" };
        case "job.request_changes":
          return { events: ["job.changes_requested"] };
        case "job.provide_input":
          return { events: ["job.input_provided"] };
        case "job.ack":
          return { events: ["job.acknowledged"] };
        case "job.dispute":
          return { events: ["job.disputed"] };
        case "job.cancel":
          return from === "failed" ? { events: [] } : { events: [], to: "cancelled" };
        case "job.retry":
        case "job.switch_tool":
          return from === "failed" ? { events: [] } : { events: ["job.changes_requested"] };
        default:
          return { events: [] }; // chat.ask is a message; job.follow_up proposes a new job
      }
    };
    const refused: string[] = [];
    for (const state of JOB_STATES) {
      for (const action of ACTIONS_BY_STATE[state]) {
        const r = records(action, state);
        for (const e of r.events)
          if (!(allowedIn.get(e) ?? []).includes(state)) refused.push(`${action} in ${state}: ${e}`);
        if (r.to && !canMove(state, r.to)) refused.push(`${action} in ${state}: ${state} → ${r.to}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it("reads each event's target state as the pack's FSM rule judges it", () => {
    expect(stateAfter({ event_type: "job.created" })).toBe("draft");
    expect(stateAfter({ event_type: "job.approved" })).toBe("approved");
    expect(stateAfter({ event_type: "job.state_changed", payload: { next_state: "waiting_input" } })).toBe(
      "waiting_input",
    );
    expect(stateAfter({ event_type: "job.state_changed", payload: { next_state: "sideways" } })).toBeUndefined();
    expect(
      stateAfter({ event_type: "job.completed", payload: { finished_card: { outcome: { result: "failed" } } } }),
    ).toBe("failed");
    expect(stateAfter({ event_type: "job.progress", payload: {} })).toBeUndefined();
    // Every state the table names is a state of the contracts.
    for (const [a, b] of JOB_TRANSITIONS) expect(JOB_STATES).toEqual(expect.arrayContaining([a, b]));
  });
});

describe("finding a transition's rule", () => {
  it("takes two hops from Office's door: index.ts names the decider, the decider names the kernel's table", () => {
    const read = (path: string) => readFileSync(new URL(`../../src/${path}`, import.meta.url), "utf8");
    // Hop 1: the door's comment points at the decider (and at the kernel itself).
    expect(read("office/index.ts")).toContain("./jobs/decide.ts");
    expect(read("office/index.ts")).toContain("../job/transitions.ts");
    // Hop 2: the decider's comment names the kernel's file and the tables it holds.
    const decider = read("office/jobs/decide.ts");
    expect(decider).toContain("../../job/transitions.ts");
    const kernel = read("job/transitions.ts");
    for (const name of ["stateAfter", "JOB_TRANSITIONS", "ACTIONS_BY_STATE", "mayClick"]) {
      expect(decider, `decide.ts names ${name}`).toContain(`\`${name}\``);
      expect(kernel, `transitions.ts exports ${name}`).toMatch(new RegExp(`export (?:const|function) ${name}\\b`));
    }
  });
});
