import { afterEach, describe, expect, it } from "vitest";
import { ANA, DAN, type ModelWorld, openModelWorld } from "./job-model-world.js";

/**
 * The chat card and the Job Drawer offer the same actions: those of the job's latest card. A
 * click on an earlier card is refused and writes nothing; while the calendar call runs, the
 * chat's latest card is the Tracking card whose Cancel the drawer offers.
 */

let w: ModelWorld | undefined;
afterEach(async () => {
  await w?.cleanup();
  w = undefined;
});

const say = async (text: string) => {
  expect(
    (await w!.req("POST", `/v1/conversations/${w!.group}/messages`, DAN, { kind: "text", body_text: text })).status,
  ).toBe(202);
  await w!.settle();
};
const jobOf = () => (w!.events().find((e) => e.event_type === "job.created")!.payload as { job_id: string }).job_id;
const drawer = async (jobId: string) => (await w!.req("GET", `/v1/jobs/${jobId}`, DAN)).body;
const chatCard = async (jobId: string) =>
  ((await w!.req("GET", `/v1/conversations/${w!.group}/timeline?limit=1000`, DAN)).body.items as any[])
    .map((i) => i.message.card)
    .filter((c) => c?.job_id === jobId)
    .at(-1);
const clickAs = async (
  jobId: string,
  card: { card_id: string; buttons: any[] },
  type: string,
  input?: Record<string, string>,
) => {
  const b = card.buttons.find((x) => x.action.type === type);
  const r = await w!.req("POST", `/v1/jobs/${jobId}/actions`, DAN, {
    conversation_id: w!.group,
    card_id: card.card_id,
    button_id: b.button_id,
    action: b.action,
    ...(input ? { input } : {}),
  });
  await w!.settle();
  return r;
};

describe("only the job's latest card acts on it", () => {
  it("a click on an earlier card's button is refused (422) and writes nothing; the latest card's is taken", async () => {
    w = await openModelWorld();
    await say("@Office Scheduler can you schedule a 30-min call with Maria next week?");
    const jobId = jobOf();
    expect((await clickAs(jobId, await chatCard(jobId), "job.approve")).status).toBe(202);
    const waiting = await chatCard(jobId);
    expect(waiting.state).toBe("waiting_input");
    await say("@Office Scheduler maria@acme.com, Tue–Thu 14:00–17:00, Europe/Lisbon, on Jitsi");
    const d = await drawer(jobId);
    expect(d.state).toBe("completed");
    expect(d.actions_card_id).not.toBe(waiting.card_id);
    const before = w.events(jobId).length;
    // "Got it" is allowed on a completed job, but not from the card that asked for the details.
    const r = await clickAs(jobId, waiting, "job.ack");
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({
      code: "INVALID_PROVENANCE",
      details: { card_id: waiting.card_id, latest_card_id: d.actions_card_id },
    });
    expect(w.events(jobId)).toHaveLength(before);
    expect((await clickAs(jobId, { card_id: d.actions_card_id, buttons: d.available_actions }, "job.ack")).status).toBe(
      202,
    );
    expect(w.events(jobId).map((e) => e.event_type)).toContain("job.acknowledged");
  });

  it("while the calendar call runs, the chat's latest card is the Tracking card whose Cancel the drawer offers", async () => {
    w = await openModelWorld();
    await say(
      "@Office Scheduler schedule a 30-min call with maria@acme.com tomorrow at 15:00 on Jitsi, Europe/Lisbon time",
    );
    const jobId = jobOf();
    w.cal.setMode("hang");
    expect((await clickAs(jobId, await chatCard(jobId), "job.approve")).status).toBe(202);
    const d = await drawer(jobId);
    expect(d.state).toBe("in_progress");
    const card = await chatCard(jobId);
    expect(card).toMatchObject({ card_type: "job.tracking", state: "in_progress", card_id: d.actions_card_id });
    expect(card.buttons).toEqual(d.available_actions);
    expect(card.buttons.map((b: any) => b.action.type)).toContain("job.cancel");
  });

  it("a job handed over while its calendar call runs: the call's result is still recorded (as Office's), nothing is refused, no agent card follows", async () => {
    w = await openModelWorld();
    await say(
      "@Office Scheduler schedule a 30-min call with maria@acme.com tomorrow at 15:00 on Jitsi, Europe/Lisbon time",
    );
    const jobId = jobOf();
    w.cal.setMode("hang");
    expect((await clickAs(jobId, await chatCard(jobId), "job.approve")).status).toBe(202);
    expect((await w.req("POST", `/v1/jobs/${jobId}/hand-over`, DAN, { to_entity_id: ANA })).status).toBe(200);
    await w.settle();
    const handedCard = await chatCard(jobId);
    expect(handedCard.progress.waiting_on.map((x: any) => x.entity_id)).toEqual([ANA]);
    // The call's deadline passes only now.
    w.cal.timeOut();
    await w.settle();
    expect(w.errors.filter((e) => e.msg.includes("refused events Office wrote on its own"))).toEqual([]);
    const result = w.events(jobId).find((e) => e.event_type === "tool.result");
    expect(result?.actor).toEqual({ entity_id: "system_office", actor_type: "system" });
    expect((result!.payload as any).error.error_code).toBe("PROVIDER_TIMEOUT");
    expect(await chatCard(jobId)).toEqual(handedCard);
  });
});
