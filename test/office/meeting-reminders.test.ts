import { afterEach, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { AGENT, click, CONV, DAN, lastCard, setupWorld, T, TRACE, type World } from "./helpers.js";
import { stateOf } from "./flows.js";

/**
 * "Remind me 15 minutes before": the person who asked is reminded at the booked start minus
 * that, by a message from the agent built from the recorded invite. The schedule is rebuilt
 * from the ledger (a restart before it is due still reminds, once; a restart after it does not
 * remind again), on the clock the test moves.
 */

let w: World | undefined;
afterEach(() => {
  w?.cleanup();
  w = undefined;
});

const reminders = () =>
  w!
    .events()
    .filter(
      (e): e is TStoredEvent & { event_type: "message.sent" } =>
        e.event_type === "message.sent" && Boolean((e.payload as { reminder?: unknown }).reminder),
    );

/** Asks for the call and the reminder, approves, gives what the form asks; returns the booked job. */
async function book(text: string) {
  w = await setupWorld({
    agents: [{ id: AGENT, name: "Office Scheduler", allowed_tools: ["calendar.create_invite"] }],
  });
  await w.office.start();
  const r = await w.office.ingestMessage({
    tenant_id: T,
    trace_id: TRACE,
    conversation_id: CONV,
    actor_entity_id: DAN,
    body_text: text,
  });
  const jobId = r.job_id!;
  await w.office.jobAction(click(lastCard(w.events(jobId), jobId), "Approve"));
  const form = lastCard(w.events(jobId), jobId);
  const fields = form.buttons.find((b: { action: { type: string } }) => b.action.type === "job.provide_input").action
    .input_schema.fields as Array<{ key: string }>;
  const give: Record<string, string> = { timezone: "Europe/Lisbon", meeting_link: "jitsi" };
  const input = Object.fromEntries(
    fields
      .map((f) => [f.key, f.key.endsWith("_email") ? "maria@acme.com" : give[f.key]])
      .filter(([, v]) => v !== undefined),
  );
  await w.office.jobAction(click(form, "Provide info", input));
  await w.office.idle();
  expect(stateOf(w, jobId)).toBe("completed");
  const invite = w.events(jobId).find((e) => e.event_type === "tool.result")!.payload as unknown as {
    output: { scheduled_time: { start: string } };
  };
  return { jobId, start: Date.parse(invite.output.scheduled_time.start) };
}

/** Moves the test's clock to `at` (epoch ms), firing what falls due on the way. */
const until = async (at: number) => w!.clock.advance(Math.max(0, at - w!.clock.now()));

describe("meeting reminders", () => {
  it("“remind me 15 minutes before”: nothing at 15:44, the reminder at 15:45, in words from the ledger; once", async () => {
    const { jobId, start } = await book(
      "Schedule a 30-min call with Maria tomorrow at 15:00 and remind me 15 minutes before",
    );
    // "15 minutes" is the reminder's, not the meeting's length.
    expect(new Date(start).toISOString()).toBe("2025-12-28T15:00:00.000Z");
    const proposed = w!.events(jobId).find((e) => e.event_type === "job.proposed")!.payload as unknown as {
      proposed_card: { job: { slots: Record<string, unknown>; constraints?: string[] } };
    };
    expect(proposed.proposed_card.job.slots).toMatchObject({
      remind_minutes: 15,
      duration_minutes: 30,
      requested_by: DAN,
    });
    expect(proposed.proposed_card.job.constraints).toContain("Remind Dan 15 minutes before it starts");

    await until(start - 15 * 60_000 - 1_000);
    expect(reminders()).toHaveLength(0);
    await until(start - 15 * 60_000);
    await w!.office.idle();
    const [r] = reminders();
    expect(r!.job_id).toBe(jobId);
    expect(r!.actor).toMatchObject({ entity_id: AGENT, actor_type: "agent" });
    expect(r!.payload.body_text).toBe(
      "Reminder for Dan: “Call with Maria” starts in 15 minutes — Sun 28 Dec 2025, 15:00–15:30 (Europe/Lisbon).",
    );
    expect(r!.payload.reminder).toEqual({
      for_entity_id: DAN,
      starts_at: "2025-12-28T15:00:00.000Z",
      minutes_before: 15,
      event_uid: expect.any(String),
    });

    // A restart after it was sent does not send it again.
    w!.office.stop();
    w!.office = w!.newOffice();
    await w!.office.start();
    await until(start + 60_000);
    await w!.office.idle();
    expect(reminders()).toHaveLength(1);
  }, 60_000);

  it("a restart before it is due: the schedule is rebuilt from the ledger and the reminder comes once", async () => {
    const { start } = await book("Schedule a 30-min call with Maria tomorrow at 15:00 and remind me 1 hour before");
    await until(start - 2 * 3_600_000);
    w!.office.stop();
    w!.office = w!.newOffice();
    await w!.office.start();
    await until(start - 3_600_000);
    await w!.office.idle();
    expect(reminders().map((e) => e.payload.body_text)).toEqual([
      "Reminder for Dan: “Call with Maria” starts in 60 minutes — Sun 28 Dec 2025, 15:00–15:30 (Europe/Lisbon).",
    ]);
  }, 60_000);

  it("“lembra-me 10 minutos antes”, and no reminder for a meeting nobody asked one for", async () => {
    const { jobId, start } = await book(
      "marca uma chamada de 30 minutos com a Maria amanhã às 15h e lembra-me 10 minutos antes",
    );
    const proposed = w!.events(jobId).find((e) => e.event_type === "job.proposed")!.payload as unknown as {
      proposed_card: { job: { slots: Record<string, unknown> } };
    };
    expect(proposed.proposed_card.job.slots).toMatchObject({ remind_minutes: 10 });
    await until(start - 10 * 60_000);
    await w!.office.idle();
    expect(reminders()).toHaveLength(1);
    w!.cleanup();

    const other = await book("Schedule a 30-min call with Maria tomorrow at 15:00");
    await until(other.start);
    await w!.office.idle();
    expect(reminders()).toHaveLength(0);
  }, 60_000);
});
