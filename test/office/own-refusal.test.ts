import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmitter } from "../../src/office/emitter.js";
import { AGENT, CONV, DAN, setupWorld, T, type World } from "./helpers.js";

/**
 * Office's own batches must never be refused by the policy pack; when one is, it is a bug and
 * is told at error level with the refusal. A person's click the pack refuses is not.
 */

let w: World;
beforeEach(async () => {
  w = await setupWorld();
});
afterEach(() => w.cleanup());

const ec = { tenant_id: T, trace_id: "trc_refusal", conversation_id: CONV };

describe("a refusal of Office's writes", () => {
  it("is reported with its code, policy and event types when the agent wrote it, and the batch still fails", async () => {
    const told: Array<Record<string, unknown>> = [];
    const emitter = createEmitter({ ledger: w.ledger, clock: w.clock, ids: w.ids, onOwnRefusal: (d) => told.push(d) });
    const agent = { entity_id: AGENT, actor_type: "agent" as const };
    // job.state_changed for a job that was never created: an illegal transition.
    await expect(
      emitter.emit(ec, [
        {
          event_type: "job.state_changed",
          actor: agent,
          job_id: "job_nowhere",
          payload: { job_id: "job_nowhere", prev_state: "in_progress", next_state: "completed" },
        },
      ]),
    ).rejects.toMatchObject({ code: expect.any(String) });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      event_type: "job.state_changed",
      event_types: ["job.state_changed"],
      tenant_id: T,
      job_id: "job_nowhere",
      policy_id: expect.stringMatching(/^policy\./),
    });
  });

  it("is not reported as Office's when a person's event was refused", async () => {
    const told: unknown[] = [];
    const emitter = createEmitter({ ledger: w.ledger, clock: w.clock, ids: w.ids, onOwnRefusal: (d) => told.push(d) });
    const dan = { entity_id: DAN, actor_type: "human" as const };
    await expect(
      emitter.emit(ec, [
        { event_type: "job.approved", actor: dan, job_id: "job_nowhere", payload: { job_id: "job_nowhere" } },
      ]),
    ).rejects.toBeDefined();
    expect(told).toEqual([]);
  });
});
