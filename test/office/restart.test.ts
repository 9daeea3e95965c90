import { afterEach, describe, expect, it } from "vitest";
import { createScriptedCalendarProvider } from "../../src/office/index.js";
import { inviteUid } from "../../src/office/tools/calendar-create-invite.js";
import { setupWorld, type World } from "./helpers.js";
import { completeGolden, stateOf } from "./flows.js";

let w: World;
afterEach(() => w?.cleanup());

const calls = (jobId: string) => w.events(jobId).filter((e) => e.event_type === "tool.called");

describe("a scheduled retry survives a restart", () => {
  it("is re-derived from the ledger on start() and runs once, not twice", async () => {
    const first = createScriptedCalendarProvider(["PROVIDER_TIMEOUT"]);
    w = await setupWorld({ office: { calendarProvider: first } });
    const jobId = await completeGolden(w);
    expect(calls(jobId)).toHaveLength(1);
    // The process dies with the +10 s retry pending.
    w.office.stop();

    const second = createScriptedCalendarProvider(["ok"]);
    const b = w.newOffice({ calendarProvider: second });
    const c = w.newOffice({ calendarProvider: second });
    await b.start();
    await c.start();
    await w.clock.advance(5_000);
    expect(second.calls).toHaveLength(0);
    await w.clock.advance(5_000);
    await b.idle();
    await c.idle();
    expect(second.calls).toHaveLength(1);
    expect(calls(jobId).map((e) => (e.payload as any).attempt)).toEqual([1, 2]);
    expect(stateOf(w, jobId)).toBe("completed");
    await w.clock.advance(600_000);
    expect(second.calls).toHaveLength(1);
    b.stop();
    c.stop();
  });

  it("a retry whose time passed while down runs at once on boot", async () => {
    w = await setupWorld({ office: { calendarProvider: createScriptedCalendarProvider(["PROVIDER_TIMEOUT"]) } });
    const jobId = await completeGolden(w);
    w.office.stop();
    w.clock.set(w.clock.now() + 3_600_000);
    const provider = createScriptedCalendarProvider(["ok"]);
    const b = w.newOffice({ calendarProvider: provider });
    await b.start();
    await w.clock.advance(0);
    await w.clock.advance(1);
    await b.idle();
    expect(provider.calls).toHaveLength(1);
    expect(stateOf(w, jobId)).toBe("completed");
    b.stop();
  });

  it("a tool call cut off mid-flight is resumed with the same call id and idempotency key", async () => {
    let release!: () => void;
    const hang = {
      ...createScriptedCalendarProvider(["ok"]),
      put: () => new Promise<never>((_, rej) => (release = () => rej(new Error("process died")))),
    };
    w = await setupWorld({ office: { calendarProvider: hang } });
    const pending = completeGolden(w).catch(() => undefined);
    for (let i = 0; i < 200 && !w.events().some((e) => e.event_type === "tool.called"); i++)
      await new Promise((r) => setTimeout(r, 10));
    const jobId = w.events().find((e) => e.event_type === "job.created")!.job_id!;
    expect(calls(jobId)).toHaveLength(1);
    w.office.stop();
    const provider = createScriptedCalendarProvider(["ok"]);
    const b = w.newOffice({ calendarProvider: provider });
    await b.start();
    await b.idle();
    expect(provider.calls).toHaveLength(1);
    // The resumed call writes the same event (its UID comes from the call's idempotency key).
    expect(provider.calls[0]!.uid).toBe(inviteUid(`idem:${jobId}:calendar.create_invite:v2`));
    const results = w.events(jobId).filter((e) => e.event_type === "tool.result");
    expect((results[0]!.payload as any).tool_call_id).toBe((calls(jobId)[0]!.payload as any).tool_call_id);
    expect(stateOf(w, jobId)).toBe("completed");
    release();
    await pending;
    b.stop();
  });
});

describe("the circuit breaker survives a restart", () => {
  it("recent failures are re-read from the ledger on start(), so the 10th still opens it", async () => {
    w = await setupWorld({ office: { calendarProvider: createScriptedCalendarProvider(["PROVIDER_TIMEOUT"]) } });
    for (let i = 0; i < 9; i++) await completeGolden(w);
    w.office.stop();
    const next = w.newOffice({ calendarProvider: createScriptedCalendarProvider(["PROVIDER_TIMEOUT"]) });
    await next.start();
    w.office = next;
    const tenth = await completeGolden(w);
    expect(stateOf(w, tenth)).toBe("failed");
    expect(
      w
        .events(tenth)
        .filter((e) => e.event_type === "job.state_changed")
        .at(-1)!.payload,
    ).toMatchObject({ reason_code: "provider_circuit_open" });
    next.stop();
  });
});
