import { afterEach, describe, expect, it } from "vitest";
import { createChatProvider } from "../../../src/office/llm/provider.js";
import { createLlmStore } from "../../../src/office/llm/store.js";
import { createLlmPlanner } from "../../../src/office/llm/llm-planner.js";
import { click, CONV, DAN, lastCard, setupWorld, T, TRACE, type World } from "../helpers.js";
import { startScriptedModel, type ScriptedModel } from "./scripted-model.js";

/** The LLM planner inside the real Office and ledger: what the ledger holds after each answer. */
let w: World | undefined;
let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  w?.cleanup();
  w = undefined;
  model = undefined;
});

const nulls = {
  text: null,
  job_id: null,
  action: null,
  kind: null,
  title: null,
  goal: null,
  slots: null,
  choices: null,
};
const slots = {
  duration_minutes: null,
  attendee_name: null,
  attendee_email: null,
  time_window: null,
  timezone: null,
  meeting_link: null,
  title: null,
  day_hint: null,
};
const answer = (ops: object[]) => ({
  content: JSON.stringify({ operations: ops, surfaces: null, render: null, citations: null }),
});

async function world() {
  model = await startScriptedModel();
  w = await setupWorld();
  const provider = createChatProvider({
    config: {
      baseUrl: model.baseUrl,
      model: "scripted",
      timeoutMs: 2_000,
      maxTokens: 800,
      responseFormat: "json_schema",
    },
    retryDelayMs: 10,
  });
  const planner = createLlmPlanner({ provider, store: createLlmStore(w.db), clock: w.clock, ids: w.ids });
  const office = w.newOffice({ planner });
  const say = (body_text: string) =>
    office.ingestMessage({ tenant_id: T, trace_id: TRACE, conversation_id: CONV, actor_entity_id: DAN, body_text });
  return { office, say, planner };
}

describe("LLM planner inside Office", () => {
  it("proposes, then fills the waiting job from text with an ActionSummary in the timeline", async () => {
    const { office, say } = await world();
    model!.script(
      answer([
        {
          ...nulls,
          type: "propose_job",
          kind: "schedule_meeting",
          title: "Schedule call with Maria",
          goal: "Book a 30-minute call with Maria next week",
          slots: { ...slots, duration_minutes: 30, attendee_name: "Maria" },
        },
      ]),
    );
    const proposed = await say("Can you schedule a 30-min call with Maria next week?");
    const jobId = proposed.job_id!;
    expect(jobId).toBeTruthy();
    await office.jobAction(click(lastCard(w!.events(jobId), jobId), "Approve"));
    const state = () =>
      [...w!.events(jobId)].reverse().find((e) => e.event_type === "job.state_changed")?.payload as
        | { next_state?: string }
        | undefined;
    expect(state()?.next_state).toBe("waiting_input");

    model!.script(
      answer([
        {
          ...nulls,
          type: "provide_input",
          job_id: jobId,
          slots: {
            ...slots,
            attendee_email: "maria@acme.com",
            time_window: "Tue–Thu, 14:00–17:00",
            timezone: "Europe/Lisbon",
            meeting_link: "google_meet",
          },
        },
      ]),
    );
    await say("maria@acme.com, Tue–Thu 14–17 Lisbon, Google Meet");
    const types = w!.events(jobId).map((e) => e.event_type);
    expect(types).toContain("job.input_provided");
    const texts = w!
      .events(jobId)
      .filter((e) => e.event_type === "message.sent")
      .map((e) => (e.payload as { body_text?: string }).body_text ?? "");
    expect(texts.some((t) => t.startsWith("Applied to: Schedule call with Maria"))).toBe(true);
    // The raw address went to the vault, never into the ledger.
    expect(JSON.stringify(w!.events())).not.toContain("maria@acme.com");
  });

  it("a prompt-injected cancel and an invented id change nothing in the ledger", async () => {
    const { office, say } = await world();
    model!.script(
      answer([
        {
          ...nulls,
          type: "propose_job",
          kind: "schedule_meeting",
          title: "Schedule call with Maria",
          goal: "Schedule a call with Maria",
          slots: null,
        },
      ]),
    );
    const jobId = (await say("please set up a call with Maria")).job_id!;
    await office.jobAction(click(lastCard(w!.events(jobId), jobId), "Approve"));
    const before = w!.events(jobId).map((e) => e.event_type);

    model!.script(
      answer([{ ...nulls, type: "job_action", job_id: jobId, action: "cancel", text: "As the document says." }]),
    );
    await say("what does the attached note say?");
    model!.script(
      answer([{ ...nulls, type: "provide_input", job_id: "job_invented", slots: { ...slots, day_hint: "Friday" } }]),
    );
    await say("Friday");

    const after = w!.events(jobId);
    expect(after.filter((e) => e.event_type !== "message.sent").map((e) => e.event_type)).toEqual(
      before.filter((t) => t !== "message.sent"),
    );
    const all = w!.events();
    expect(
      all.some(
        (e) => e.event_type === "job.state_changed" && (e.payload as { next_state: string }).next_state === "cancelled",
      ),
    ).toBe(false);
    const lastTexts = all
      .filter((e) => e.event_type === "message.sent")
      .slice(-2)
      .map((e) => (e.payload as { body_text?: string }).body_text);
    expect(lastTexts[0]).toContain("Nothing changes until you confirm");
    expect(lastTexts[1]).toContain("Which job do you mean?");
  });

  it("a model that is down: a calm reply, the conversation goes on", async () => {
    const { say } = await world();
    model!.script({ status: 503 }, { status: 503 });
    const r = await say("hello?");
    expect(r.notes).toBe("Chat reply");
    const last = w!
      .events()
      .filter((e) => e.event_type === "message.sent")
      .at(-1)!.payload as { body_text: string };
    expect(last.body_text).toContain("can’t reach my language model");
  });
});
