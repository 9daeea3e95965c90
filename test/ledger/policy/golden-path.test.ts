import { describe, expect, it } from "vitest";
import { createFold } from "../../../src/ledger/fold.js";
import { stateAfter } from "../../../src/job/transitions.js";
import { loadScenarios, newEngine } from "./helpers.js";

describe("the seed's golden path and failure path pass the pack, in order, from an empty tenant", () => {
  for (const s of loadScenarios()) {
    it(`${s.file}: every event is accepted with no warning`, () => {
      const engine = newEngine();
      const fold = createFold();
      const states: string[] = [];
      for (const raw of s.events) {
        const d = engine.check(fold, raw);
        expect(d.ok ? null : { event_id: raw.event_id, ...d.violation }).toBeNull();
        expect(d.warnings).toEqual([]);
        if (!d.ok) return;
        fold.apply(d.event);
        if (stateAfter(d.event)) states.push(fold.jobState(s.tenant_id, "job_sched_4c1b") as string);
      }
      const last = states.at(-1);
      expect(last).toBe(
        {
          happy_path: "completed",
          failure_retryable: "completed",
          failure_auth_required: "cancelled",
          failure_retries_exhausted: "failed",
        }[s.scenario],
      );
    });

    it(`${s.file}: passes as one all-or-nothing batch too (mark, check+apply each, release)`, () => {
      const engine = newEngine();
      const fold = createFold();
      const m = fold.mark();
      for (const raw of s.events) {
        const d = engine.check(fold, raw);
        expect(d.ok).toBe(true);
        if (d.ok) fold.apply(d.event);
      }
      fold.release(m);
      expect(fold.hasEvent(s.tenant_id, s.events.at(-1)!.event_id)).toBe(true);
    });
  }

  it("a batch refused half-way leaves the fold as it was before the batch", () => {
    const s = loadScenarios().find((x) => x.scenario === "happy_path")!;
    const engine = newEngine();
    const fold = createFold();
    const m0 = fold.mark();
    for (const raw of s.events.slice(0, 5)) {
      const d = engine.check(fold, raw);
      if (d.ok) fold.apply(d.event);
    }
    fold.release(m0);
    const before = JSON.stringify(fold.snapshot());
    const m = fold.mark();
    const batch = [
      ...s.events.slice(5, 12),
      {
        ...s.events[5],
        event_id: "evt_bad",
        payload: {
          job_id: "job_sched_4c1b",
          card_id: "card_formalize_001",
          button_id: "btn_forged",
          action: { type: "job.approve", job_id: "job_sched_4c1b" },
        },
      },
    ];
    let refused = false;
    for (const raw of batch) {
      const d = engine.check(fold, raw);
      if (!d.ok) {
        refused = true;
        fold.rollbackTo(m);
        break;
      }
      fold.apply(d.event);
    }
    expect(refused).toBe(true);
    expect(JSON.stringify(fold.snapshot())).toBe(before);
  });
});
