import { afterEach, describe, expect, it } from "vitest";
import type { LedgerApi } from "../../src/ledger/index.js";
import { createScriptedCalendarProvider } from "../../src/office/index.js";
import { foldJob } from "../../src/office/job-machine.js";
import { createOfficeView } from "../../src/office/views/office-view.js";
import { AGENT, click, CONV, DAN, lastCard, setupWorld, T, TRACE, type World } from "./helpers.js";
import { approveGolden, completeGolden, proposeGolden } from "./flows.js";

let w: World;
afterEach(() => w?.cleanup());

/** The same ledger, counting the reads that go to SQLite. */
function countingLedger(ledger: LedgerApi) {
  const counts = { query: 0, replay: 0 };
  const wrapped: LedgerApi = {
    ...ledger,
    facts: ledger.facts,
    query: (req) => (counts.query++, ledger.query(req)),
    replay: (on, opts) => (counts.replay++, ledger.replay(on, opts)),
  };
  return { ledger: wrapped, counts };
}

describe("the Office view", () => {
  it("rebuilt from the ledger on boot equals the view kept live by the subscription", async () => {
    w = await setupWorld({
      office: {
        calendarProvider: createScriptedCalendarProvider(["ok", "PROVIDER_TIMEOUT", "PROVIDER_AUTH_REQUIRED"]),
      },
    });
    const live = createOfficeView({ ledger: w.ledger });
    const done = await completeGolden(w);
    const retrying = await completeGolden(w);
    const waiting = await completeGolden(w);
    const rejected = await proposeGolden(w);
    await w.office.jobAction(click(lastCard(w.events(rejected), rejected), "Reject"));
    await approveGolden(w);
    await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "thanks!",
    });
    await w.clock.advance(10_000);

    const rebuilt = createOfficeView({ ledger: w.ledger });
    expect(rebuilt.snapshot()).toEqual(live.snapshot());
    expect(live.tenantJobIds(T)).toHaveLength(5);
    expect(live.conversationJobIds(T, CONV)).toEqual(live.tenantJobIds(T));
    expect(live.agentJobIds(T, AGENT)).toEqual(live.tenantJobIds(T));
    expect(live.participants(T, CONV)).toEqual([DAN, AGENT]);
    expect(live.profile(T, AGENT)).toMatchObject({
      display_name: "Office Scheduler",
      allowed_tools: ["calendar.create_invite"],
    });

    // Each summary says what the full fold of the job's events says.
    const states = new Map<string, string>();
    for (const id of live.tenantJobIds(T)) {
      const full = foldJob(w.events(id))!;
      const s = live.job(T, id)!;
      states.set(id, s.state);
      expect(s).toMatchObject({
        job_id: full.job_id,
        title: full.title,
        state: full.state,
        owner_entity_id: full.owner_entity_id,
        conversation_id: full.conversation_id,
        created_at: full.created_at,
        updated_at: full.updated_at,
      });
      const last = full.tools.at(-1);
      expect(s.last_tool).toEqual(
        last
          ? {
              tool_call_id: last.tool_call_id,
              tool_name: last.tool_name,
              ...(last.status ? { status: last.status } : {}),
              ...(last.error_code ? { error_code: last.error_code } : {}),
            }
          : undefined,
      );
    }
    // The timeout's retry ran live and met the scripted auth failure too.
    expect([states.get(done), states.get(retrying), states.get(waiting), states.get(rejected)]).toEqual([
      "completed",
      "waiting_input",
      "waiting_input",
      "rejected",
    ]);
    live.close();
    rebuilt.close();
  });

  it("reads its own writes: what an append committed is in the view when the append resolves", async () => {
    w = await setupWorld();
    const view = createOfficeView({ ledger: w.ledger });
    const r = await w.ledger.append({
      tenant_id: T,
      events: [
        {
          event_id: "evt_ryw_a",
          event_type: "message.sent",
          ts: "2025-12-27T10:01:00.000Z",
          tenant_id: T,
          trace_id: TRACE,
          conversation_id: CONV,
          actor: { entity_id: DAN, actor_type: "human" },
          payload: { message_id: "msg_ryw_a", kind: "text", body_text: "hello" },
        },
      ],
    });
    // No tick in between: the subscription ran before append() resolved.
    expect(view.lastMessageBy(T, CONV, DAN)).toBe(r.accepted_event_ids[0]);
    expect(view.recentTexts(T, CONV).at(-1)).toMatchObject({ entity_id: DAN, text: "hello" });

    // Office appends and reads straight away: the approval it just wrote moved the job to
    // waiting_input, and the very next message is read as the answer to that job's question.
    const jobId = await approveGolden(w);
    expect(view.job(T, jobId)?.state).toBe("waiting_input");
    const next = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "maria@acme.com, Tue–Thu 14:00–17:00, Europe/Lisbon, Google Meet",
    });
    expect(next).toMatchObject({ job_id: jobId, notes: "Continued the job" });
    expect(view.job(T, jobId)?.state).toBe(foldJob(w.events(jobId))!.state);
    expect((await w.office.trajectory(T, AGENT)).jobs.map((j) => j.job_id)).toEqual([jobId]);
    view.close();
  });

  it("building a frame costs the same number of ledger reads on the 40th message as on the 3rd", async () => {
    w = await setupWorld();
    const { ledger, counts } = countingLedger(w.ledger);
    const office = w.newOffice({ ledger });
    expect(counts.replay).toBe(1);
    const perMessage: number[] = [];
    for (let i = 0; i < 40; i++) {
      const before = counts.query;
      const text = i % 2 ? `thanks ${i}` : `Can you schedule a 30-min call with Maria ${i} next week?`;
      const r = await office.ingestMessage({
        tenant_id: T,
        trace_id: TRACE,
        conversation_id: CONV,
        actor_entity_id: DAN,
        body_text: text,
      });
      if (i % 2 === 0) expect(r.job_id).toBeDefined();
      perMessage.push(counts.query - before);
    }
    // History grows (20 open jobs, 40 messages); the reads per message do not.
    expect(perMessage).toEqual(perMessage.map(() => 0));
    expect(counts.replay).toBe(1);
    office.stop();
  });
});
