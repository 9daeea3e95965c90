import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { click, CONV, DAN, GOLDEN_INPUT, lastCard, setupWorld, T, TRACE, type World } from "./helpers.js";

describe("golden path: schedule a meeting + send invite", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());

  it("message → proposal → approve → waiting_input → provide info → invite sent", async () => {
    const r1 = await w.office.ingestMessage({ tenant_id: T, trace_id: TRACE, conversation_id: CONV, actor_entity_id: DAN, body_text: "Can you schedule a 30-min call with Maria next week?" });
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
    expect(tracking.buttons.map((b: any) => b.label)).toEqual(["Got it", "Provide info", "Dispute", "Cancel", "Ask in chat"]);

    await w.office.jobAction(click(tracking, "Provide info", GOLDEN_INPUT));
    evs = w.events(jobId);
    console.log(evs.map((e) => `${e.event_type} ${e.actor.actor_type} ${(e.payload as any).next_state ?? (e.payload as any).card?.card_type ?? ""}`).join("\n"));
    expect(evs.at(-2)!.event_type).toBe("job.completed");
  });
});
