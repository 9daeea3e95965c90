import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findPiiDeep } from "../../src/office/pii.js";
import { click, CONV, DAN, setupWorld, T, TRACE, type World } from "./helpers.js";
import { approveGolden, card, proposeGolden, stateOf } from "./flows.js";

describe("chat keeps working around jobs", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());
  const say = (body_text: string) => w.office.ingestMessage({ tenant_id: T, trace_id: TRACE, conversation_id: CONV, actor_entity_id: DAN, body_text });

  it("plain chat gets a short reply and no job", async () => {
    const r = await say("thanks!");
    expect(r.notes).toBe("Chat reply");
    expect(w.events().filter((e) => e.event_type.startsWith("job."))).toHaveLength(0);
  });

  it("the details typed into chat fill the waiting job (with the open card as provenance)", async () => {
    const jobId = await approveGolden(w);
    await say("maria@acme.com, Tue–Thu 14:00–17:00, Europe/Lisbon, Google Meet");
    expect(stateOf(w, jobId)).toBe("completed");
    const input = w.events(jobId).find((e) => e.event_type === "job.input_provided")!;
    expect(input.actor).toEqual({ entity_id: DAN, actor_type: "human" });
    expect(input.payload).toMatchObject({ action: { type: "job.provide_input" } });
    for (const e of w.events()) expect(findPiiDeep(e.payload)).toEqual([]);
  });

  it("a generic job is proposed, and on approval Office says honestly it has no tool for it", async () => {
    const r = await say("Send invoice 123 to ACME");
    const c = card(w, r.job_id!);
    expect(c).toMatchObject({ card_type: "job.formalize", title: "Send invoice 123 to ACME" });
    await w.office.jobAction(click(c, "Approve"));
    expect(stateOf(w, r.job_id!)).toBe("waiting_input");
    expect(w.events(r.job_id).filter((e) => e.event_type === "job.state_changed").at(-1)!.payload).toMatchObject({ reason_code: "no_tool_available" });
    expect(w.events(r.job_id).some((e) => e.event_type === "job.completed")).toBe(false);
  });

  it("a message while a job is proposed does not touch the job", async () => {
    const jobId = await proposeGolden(w);
    const before = w.events(jobId).length;
    await say("how is it going?");
    expect(w.events(jobId)).toHaveLength(before);
  });
});
