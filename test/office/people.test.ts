import { afterEach, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { card, stateOf } from "./flows.js";
import { AGENT, click, CONV, DAN, setupWorld, T, TRACE, type World } from "./helpers.js";

/**
 * People in Office: the asker's own time zone, "hand this job over to Ana", and "why did you do
 * that?" — each checked against what the ledger holds, with the real policy pack.
 */
let w: World;
afterEach(() => w?.cleanup());

const ANA = "ent_human_ana";
const sys = { entity_id: "system_policy_agent", actor_type: "system" as const };
let n = 0;
const base = (
  event_type: string,
  conversation_id: string,
  actor: { entity_id: string; actor_type: "human" | "system" },
  payload: Record<string, unknown>,
) => ({
  event_id: `evt_people_${String.fromCharCode(97 + n++)}`,
  event_type,
  ts: "2025-12-27T10:00:01.000Z",
  tenant_id: T,
  trace_id: "trc_people",
  conversation_id,
  actor,
  payload,
});

/** Ana, and a group where Dan, Ana and the agent are all members. */
async function withAna(): Promise<string> {
  const group = "cnv_group_people";
  await w.ledger.append({
    tenant_id: T,
    events: [
      base("entity.registered", "cnv_workspace", sys, {
        entity_id: ANA,
        actor_type: "human",
        display_name: "Ana",
        roles: ["member"],
      }),
      base(
        "conversation.created",
        group,
        { entity_id: DAN, actor_type: "human" },
        {
          conversation_id: group,
          title: "Team",
          kind: "group",
          participants: [{ entity_id: DAN }, { entity_id: ANA }, { entity_id: AGENT }],
        },
      ),
    ],
  });
  return group;
}

/** What the gateway keeps of an address typed into chat (the address itself goes to the vault). */
const redacted = (text: string) => text.replace(/\b([a-z])[a-z.]*@/gi, "$1***@");

/** The person's message as the gateway writes it, then handed to Office naming it. */
async function say(conversation_id: string, body_text: string, actor_entity_id = DAN) {
  const msg = {
    ...base(
      "message.sent",
      conversation_id,
      { entity_id: actor_entity_id, actor_type: "human" },
      { message_id: `msg_${n}`, kind: "text", body_text: redacted(body_text) },
    ),
    ts: w.clock.iso(),
  };
  await w.ledger.append({ tenant_id: T, events: [msg] });
  return w.office.ingestMessage({
    tenant_id: T,
    trace_id: TRACE,
    conversation_id,
    actor_entity_id,
    body_text,
    message_event_id: msg.event_id,
  });
}
const texts = (conversation: string) =>
  w
    .events()
    .filter(
      (e) =>
        e.event_type === "message.sent" &&
        e.conversation_id === conversation &&
        e.actor.entity_id === AGENT &&
        (e.payload as { kind: string }).kind === "text",
    )
    .map((e) => (e.payload as { body_text: string }).body_text);
const results = (jobId: string) =>
  w.events(jobId).filter((e): e is TStoredEvent & { payload: any } => e.event_type === "tool.result");

describe("agents use the person's time zone", () => {
  it("a person in America/New_York asking for “tomorrow at 3pm” gets 15:00 New York time on the card and in the invite", async () => {
    w = await setupWorld();
    await w.ledger.append({
      tenant_id: T,
      events: [
        base(
          "entity.profile_updated",
          "cnv_workspace",
          { entity_id: DAN, actor_type: "human" },
          { entity_id: DAN, time_zone: "America/New_York" },
        ),
      ],
    });
    const r = await say(CONV, "Schedule a 30-min call with maria@acme.com tomorrow at 3pm");
    const jobId = r.job_id!;
    const formalize = card(w, jobId);
    expect(JSON.stringify(formalize)).toContain("America/New_York");
    await w.office.jobAction(click(card(w, jobId), "Approve"));
    await w.office.jobAction(click(card(w, jobId), "Provide info", { meeting_link: "jitsi" }));
    expect(stateOf(w, jobId)).toBe("completed");
    // The clock reads 27 Dec 2025; New York is UTC−5 in winter: 15:00 there is 20:00Z.
    expect(results(jobId)[0]!.payload.output.scheduled_time).toEqual({
      start: "2025-12-28T20:00:00.000Z",
      end: "2025-12-28T20:30:00.000Z",
      timezone: "America/New_York",
    });
    expect(card(w, jobId).outcome.summary).toMatch(/Sun 28 Dec 2025, 15:00–15:30 \(America\/New_York\)/);
  });

  it("without a profile zone nothing is assumed: the card asks, offering the workspace default", async () => {
    w = await setupWorld();
    const r = await say(CONV, "Schedule a 30-min call with maria@acme.com tomorrow at 3pm");
    const c = JSON.stringify(card(w, r.job_id!));
    expect(c).toContain("Europe/Lisbon?");
    expect(c).not.toContain("America/New_York");
  });
});

describe("hand this job over", () => {
  it("writes job.handed_over as the person who asked, says so from that event, and the agent stops acting on the job", async () => {
    w = await setupWorld();
    const group = await withAna();
    const jobId = (await say(group, "@Office Scheduler can you schedule a 30-min call with Maria next week?")).job_id!;
    await w.office.jobAction({ ...click(card(w, jobId), "Approve"), conversation_id: group });
    expect(stateOf(w, jobId)).toBe("waiting_input");
    const before = w.events(jobId).length;
    const agentsCard = card(w, jobId);
    const r = await say(group, "hand this job over to Ana");
    const handed = w.events(jobId).filter((e) => e.event_type === "job.handed_over");
    expect(handed).toHaveLength(1);
    expect(handed[0]!.actor).toEqual({ entity_id: DAN, actor_type: "human" });
    expect(handed[0]!.payload).toMatchObject({ from_entity_id: AGENT, to_entity_id: ANA });
    expect(r.emitted_event_ids).toContain(handed[0]!.event_id);
    expect(texts(group).at(-1)).toBe("Done — “Schedule call with Maria” is Ana’s now. I’ve stopped working on it.");
    // The agent's card is replaced by one naming Ana, with nothing to click but Ask in chat.
    const latest = card(w, jobId);
    expect(latest.card_id).not.toBe(agentsCard.card_id);
    expect(latest.progress.waiting_on.map((x: any) => x.entity_id)).toEqual([ANA]);
    expect(latest.buttons.map((b: any) => b.action.type)).toEqual(["chat.ask"]);
    expect(r.emitted_event_ids).toContain(
      w
        .events(jobId)
        .find((e) => e.event_type === "message.sent" && (e.payload as any).card?.card_id === latest.card_id)!.event_id,
    );
    // A click on the agent's old card is refused, and nothing is written for the job by the agent.
    await expect(
      w.office.jobAction({
        ...click(agentsCard, "Provide info", { maria_email: "maria@acme.com" }),
        conversation_id: group,
      }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await w.clock.advance(400_000);
    const after = w
      .events(jobId)
      .slice(before)
      .filter((e) => e.actor.entity_id === AGENT && e.event_type !== "message.sent");
    expect(after).toEqual([]);
  });

  it("a proposal handed over before anyone approved it gets the new holder's card, and nothing Office writes is refused", async () => {
    const told: unknown[] = [];
    w = await setupWorld({ office: { logger: { error: (obj: unknown, msg?: string) => void told.push([msg, obj]) } } });
    const group = await withAna();
    const jobId = (await say(group, "@Office Scheduler can you schedule a 30-min call with Maria next week?")).job_id!;
    expect(stateOf(w, jobId)).toBe("proposed");
    const proposal = card(w, jobId);
    await say(group, "hand this job over to Ana");
    expect(told).toEqual([]);
    expect(w.events(jobId).filter((e) => e.event_type === "job.handed_over")).toHaveLength(1);
    // Never started, so no progress is recorded: the proposal is replaced by a card naming Ana.
    expect(w.events(jobId).filter((e) => e.event_type === "job.progress")).toEqual([]);
    const latest = card(w, jobId);
    expect(latest.card_id).not.toBe(proposal.card_id);
    expect(latest.progress.waiting_on.map((x: any) => x.entity_id)).toEqual([ANA]);
    expect(latest.buttons.map((b: any) => b.action.type)).toEqual(["chat.ask"]);
    expect(stateOf(w, jobId)).toBe("proposed");
    // The proposal's Approve is refused now: the agent no longer acts on the job.
    await expect(w.office.jobAction({ ...click(proposal, "Approve"), conversation_id: group })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("never claims a hand-over that did not happen: unknown person, a member who may not, no open job", async () => {
    w = await setupWorld();
    const group = await withAna();
    await say(group, "hand this job over to Ana");
    expect(texts(group).at(-1)).toBe("There is no open job here to hand over.");
    const jobId = (await say(group, "@Office Scheduler can you schedule a 30-min call with Maria next week?")).job_id!;
    await say(group, "hand this job over to Zed");
    expect(texts(group).at(-1)).toBe(
      "I found nobody called Zed in this conversation, so “Schedule call with Maria” was not handed over.",
    );
    // Ana neither asked for it nor approves: the ledger refuses, and the agent says it did not happen.
    await say(group, "hand this job over to Ana", ANA);
    expect(texts(group).at(-1)).toMatch(/^I couldn’t hand “Schedule call with Maria” over to Ana: /);
    expect(w.events(jobId).some((e) => e.event_type === "job.handed_over")).toBe(false);
  });
});

describe("why did you do that?", () => {
  it("is answered from the job's own events: the message, the proposal, the approval, the tool result", async () => {
    w = await setupWorld();
    const r = await say(CONV, "Schedule a 30-min call with maria@acme.com tomorrow at 3pm");
    const jobId = r.job_id!;
    await w.office.jobAction(click(card(w, jobId), "Approve"));
    await w.office.jobAction(
      click(card(w, jobId), "Provide info", { meeting_link: "jitsi", timezone: "Europe/Lisbon" }),
    );
    const why = await w.office.explainJob(T, jobId);
    const events = new Map([...w.events(jobId), ...w.events()].map((e) => [e.event_id, e]));
    // Every line names a real event, and links to it in the Job Drawer.
    for (const line of why.lines) {
      expect(events.get(line.event_id)?.event_type).toBe(line.event_type);
      expect(line.url).toBe(`/jobs/${jobId}#${line.event_id}`);
    }
    const kinds = why.lines.map((l) => l.event_type);
    expect(kinds[0]).toBe("message.sent");
    expect(why.lines[0]!.text).toMatch(
      /^It started with Dan’s message: “Schedule a 30-min call with m\*+@acme\.com tomorrow at 3pm”$/,
    );
    expect(kinds).toEqual(
      expect.arrayContaining(["job.proposed", "job.approved", "tool.called", "tool.result", "job.completed"]),
    );
    expect(why.lines.find((l) => l.event_type === "job.approved")!.text).toBe("Dan approved it.");
    expect(why.lines.find((l) => l.event_type === "tool.result")!.text).toBe("calendar.create_invite succeeded.");

    await say(CONV, "why did you do that?");
    const reply = texts(CONV).at(-1)!;
    expect(reply.split("\n")[0]).toBe(`Why “${why.title}” — from the ledger:`);
    expect(reply).toContain("• Dan approved it.");
  });

  it("says so when there is nothing to explain", async () => {
    w = await setupWorld();
    await say(CONV, "why did you do that?");
    expect(texts(CONV).at(-1)).toBe(
      "I haven’t done anything here yet: there is no job in this conversation to explain.",
    );
  });
});
