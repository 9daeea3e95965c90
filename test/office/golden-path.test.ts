import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { click, CONV, DAN, GOLDEN_INPUT, lastCard, setupWorld, T, TRACE, type World } from "./helpers.js";

describe("golden path: schedule a meeting + send invite", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());

  it("message → proposal → approve → waiting_input → provide info → invite sent", async () => {
    const r1 = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    expect(r1.emitted_event_ids).toHaveLength(3);
    const jobId = r1.job_id!;
    let evs = w.events(jobId);
    expect(evs.map((e) => e.event_type)).toEqual(["job.created", "job.proposed", "message.sent"]);
    const formalize = lastCard(evs, jobId);
    expect(formalize.title).toBe("Schedule call with Maria");
    expect(formalize.buttons.map((b: any) => b.label)).toEqual(["Approve", "Reject", "Request changes", "Ask in chat"]);

    await w.office.jobAction(click(formalize, "Approve"));
    evs = w.events(jobId);
    const tracking = lastCard(evs, jobId);
    expect(tracking.state).toBe("waiting_input");
    expect(tracking.buttons.map((b: any) => b.label)).toEqual([
      "Got it",
      "Provide info",
      "Dispute",
      "Cancel",
      "Ask in chat",
    ]);

    await w.office.jobAction(click(tracking, "Provide info", GOLDEN_INPUT));
    evs = w.events(jobId);
    expect(evs.map((e) => e.event_type)).toEqual([
      "job.created",
      "job.proposed",
      "message.sent",
      "job.approved",
      "job.state_changed",
      "job.state_changed",
      "job.progress",
      "message.sent",
      "job.input_provided",
      "job.state_changed",
      "job.progress",
      "tool.called",
      "tool.result",
      "job.completed",
      "message.sent",
    ]);
    expect(lastCard(evs, jobId)).toMatchObject({ card_type: "job.finished", outcome: { result: "completed" } });
    expect(lastCard(evs, jobId).buttons.map((b: any) => b.label)).toEqual([
      "Accept",
      "Dispute",
      "Follow-up",
      "Ask in chat",
    ]);
  });
});
