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
  const say = (body_text: string) =>
    w.office.ingestMessage({ tenant_id: T, trace_id: TRACE, conversation_id: CONV, actor_entity_id: DAN, body_text });

  it("plain chat gets a short reply and no job", async () => {
    const r = await say("thanks!");
    expect(r.notes).toBe("Chat reply");
    expect(w.events().filter((e) => e.event_type.startsWith("job."))).toHaveLength(0);
  });

  it("the details typed into chat fill the waiting job (with the open card as provenance)", async () => {
    const jobId = await approveGolden(w);
    await say("maria@acme.com, Tue–Thu 14:00–17:00, Europe/Lisbon, Google Meet");
    // No Google Meet is created here: the person's own link is what is still missing.
    expect(stateOf(w, jobId)).toBe("waiting_input");
    expect(JSON.stringify(card(w, jobId))).toContain("Google Meet");
    await say("here it is: https://meet.google.com/abc-defg-hij");
    expect(stateOf(w, jobId)).toBe("completed");
    expect(card(w, jobId).outcome.summary).toContain("with the Google Meet link you pasted");
    const input = w.events(jobId).find((e) => e.event_type === "job.input_provided")!;
    expect(input.actor).toEqual({ entity_id: DAN, actor_type: "human" });
    expect(input.payload).toMatchObject({ action: { type: "job.provide_input" } });
    for (const e of w.events()) expect(findPiiDeep(e.payload)).toEqual([]);
  });

  it("work no tool can do is declined at once, with no job and no promise", async () => {
    for (const text of ["Send invoice 123 to ACME", "Book a table for Friday", "Please order more printer paper"]) {
      const r = await say(text);
      expect(r.notes).toBe("Declined work no tool can do");
      expect(r.job_id).toBeUndefined();
    }
    expect(w.events().filter((e) => e.event_type.startsWith("job."))).toHaveLength(0);
    const replies = w
      .events()
      .filter((e) => e.event_type === "message.sent" && e.actor.entity_id === "ent_agent_scheduler");
    expect(replies).toHaveLength(3);
    // Dan is the only approver here, so the real path is his own: a to-do job, never "found nobody".
    const first = replies[0]!.payload as { body_text: string; choices?: Array<{ label: string; token: string }> };
    expect(first.body_text).toMatch(
      /^I can’t do that myself\. I can schedule meetings and send calendar invites\. You approve work here yourself/,
    );
    expect(first.body_text).not.toMatch(/found nobody/);
    expect(first.choices?.map((c) => c.label)).toEqual(["Make it a to-do for me", "No thanks"]);
    // The choice, sent back as Dan's message, opens a job for him in his chat with the agent.
    const todo = await say(first.choices![0]!.token);
    expect(todo.notes).toBe("Handed to a person");
    const created = w.events(todo.job_id).find((e) => e.event_type === "job.created")!;
    expect(created.conversation_id).toBe(CONV);
    expect((created.payload as { title: string }).title).toBe("From Dan: Send invoice 123 to ACME");
  });

  it("a message while a job is proposed does not touch the job", async () => {
    const jobId = await proposeGolden(w);
    const before = w.events(jobId).length;
    await say("how is it going?");
    expect(w.events(jobId)).toHaveLength(before);
  });
});

describe("handing work no tool can do to a person", () => {
  let w: World;
  const ANA = "ent_human_ana";
  const ANA_CHAT = "cnv_ana_agent";
  const DAN_CHAT = CONV; // Dan's direct chat with the agent
  beforeEach(async () => {
    w = await setupWorld();
    const sys = { entity_id: "system_policy_agent", actor_type: "system" as const };
    const base = { ts: "2025-12-27T10:00:00.000Z", tenant_id: T, trace_id: "trc_setup", actor: sys };
    await w.ledger.append({
      tenant_id: T,
      events: [
        {
          ...base,
          event_id: "evt_setup_ana",
          event_type: "entity.registered",
          conversation_id: "cnv_workspace",
          payload: { entity_id: ANA, actor_type: "human", display_name: "Ana", roles: ["member"] },
        },
        {
          ...base,
          event_id: "evt_setup_anachat",
          event_type: "conversation.created",
          conversation_id: ANA_CHAT,
          payload: {
            conversation_id: ANA_CHAT,
            title: "Ana",
            participants: [{ entity_id: ANA }, { entity_id: "ent_agent_scheduler" }],
          },
        },
      ],
    });
  });
  afterEach(() => w.cleanup());
  const anaSays = (body_text: string) =>
    w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: ANA_CHAT,
      actor_entity_id: ANA,
      body_text,
    });

  it("offers to hand the request to an approver, and on acceptance opens a job in the approver’s chat", async () => {
    const r = await anaSays("Send invoice 123 to ACME");
    const offer = w
      .events()
      .filter((e) => e.conversation_id === ANA_CHAT && e.event_type === "message.sent")
      .at(-1)!;
    expect((offer.payload as { body_text: string }).body_text).toContain(
      "Shall I hand “Send invoice 123 to ACME” to Dan?",
    );
    const choices = (offer.payload as { choices: Array<{ label: string; token: string }> }).choices;
    expect(choices.map((c) => c.label)).toEqual(["Hand it to Dan", "No thanks"]);
    expect(r.job_id).toBeUndefined();

    const handed = await anaSays(choices[0]!.token);
    expect(handed.notes).toBe("Handed to a person");
    const jobEvents = w.events(handed.job_id);
    expect(jobEvents.every((e) => e.conversation_id === DAN_CHAT)).toBe(true);
    const proposal = card(w, handed.job_id!);
    expect(proposal).toMatchObject({
      card_type: "job.formalize",
      title: "From Ana: Send invoice 123 to ACME",
      job: { kind: "handoff" },
    });
    // The reply to Ana names the job that was written, in Dan's chat.
    const reply = w
      .events()
      .filter((e) => e.conversation_id === ANA_CHAT && e.event_type === "message.sent")
      .at(-1)!;
    expect((reply.payload as { body_text: string }).body_text).toBe(
      "Handed to Dan: it is waiting in their chat with me as “From Ana: Send invoice 123 to ACME”.",
    );

    // Dan takes it on; Office waits for him and never claims the work itself.
    await w.office.jobAction({ ...click(proposal, "Approve"), conversation_id: DAN_CHAT });
    expect(stateOf(w, handed.job_id!)).toBe("waiting_input");
    const tracking = card(w, handed.job_id!);
    expect(tracking.progress.status_line).toBe("Dan is doing this; I am not. Use “Provide info” to mark it done.");
    await w.office.jobAction({
      ...click(tracking, "Provide info", { info: "Posted the invoice" }),
      conversation_id: DAN_CHAT,
    });
    expect(stateOf(w, handed.job_id!)).toBe("completed");
    expect(card(w, handed.job_id!).outcome.summary).toBe("Marked done in this chat: “Posted the invoice”");
  });

  it("refuses to hand work to someone who is not an approver or admin", async () => {
    const r = await anaSays("Hand it to Ana: send invoice 123");
    expect(r.notes).toBe("Nobody to hand it to");
    expect(w.events().filter((e) => e.event_type === "job.created")).toHaveLength(0);
  });
});
