import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deferral } from "../../src/office/llm/assist-apply.js";
import { startScriptedModel, type ScriptedModel } from "../office/llm/scripted-model.js";
import { REPLIES } from "../office/llm/harness.js";
import { startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * Assist's Apply through the gateway with the scripted model: the suggestions a person was shown
 * survive a restart, Apply commits the person's click with its idempotent response (a replay
 * executes nothing, a second click finds the suggestion taken), and the suggestions that used to
 * be only recorded change the re-proposed Formalize card (rewrite_title, defer_task).
 */
let model: ScriptedModel;
let t: TestServer;
let dan: string;
let jobId: string;
const C = "cnv_9f2a";
const office = (baseUrl: string) => ({
  planner: "llm" as const,
  llm: {
    baseUrl,
    model: "scripted",
    timeoutMs: 3000,
    maxTokens: 1500,
    responseFormat: "json_schema" as const,
    logFull: false,
  },
});
const as = (method: string, path: string, body?: unknown, key?: string) =>
  t.server.app.request(path, {
    method,
    headers: {
      authorization: `Bearer ${dan}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method !== "GET" ? { "idempotency-key": key ?? `k${Math.random()}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const json = async (r: Response) => (await r.json()) as any;
const timeline = async () => (await json(await as("GET", `/v1/conversations/${C}/timeline?limit=500`))).items as any[];
const formalizeCards = async () =>
  (await timeline()).filter((i) => i.message.card?.card_type === "job.formalize").map((i) => i.message.card);
const head = () => t.server.ledger.head(t.demo.tenant_id).tenant_seq;
const nulls = {
  title: null,
  text: null,
  dueDateISO: null,
  priority: null,
  subtasks: null,
  questionId: null,
  question: null,
  choices: null,
  strategy: null,
};
const sug = (type: string, suggestionId: string, payload: Record<string, unknown>, requiresConfirmation = false) => ({
  type,
  suggestionId,
  confidence: 0.8,
  rationale: "Fits the request",
  requiresConfirmation,
  payload: { ...nulls, jobId, ...payload },
});
const scriptSuggestions = (...suggestions: unknown[]) =>
  model.script({
    content: JSON.stringify({ contractVersion: 1, surface: "job_drawer", must_abstain: false, suggestions }),
  });
/** A new Formalize card after `count` of them, once Office has carried the click out. */
const nextCard = async (count: number) =>
  waitFor(async () => (await formalizeCards())[count], 10_000, "re-proposed Formalize card");

beforeAll(async () => {
  model = await startScriptedModel();
  t = await startTestServer({ keep: true, office: office(model.baseUrl) });
  dan = t.demo.humans[0]!.token;
  model.script({ content: REPLIES.correct_propose! });
  expect(
    (
      await as("POST", `/v1/conversations/${C}/messages`, {
        kind: "text",
        body_text: "Can you schedule a 30-min call with Bruno next week?",
      })
    ).status,
  ).toBe(202);
  jobId = (await nextCard(0)).job_id;
});
afterAll(async () => {
  await t.close();
  await model.close();
});

describe("Assist suggestions are stored", () => {
  it("Assist, then a restart on the same data dir, then Apply re-proposes the card with the new title", async () => {
    scriptSuggestions(
      sug("rewrite_title", "s_title", { title: "Intro call with Bruno" }),
      sug("defer_task", "s_week", { strategy: "next_week" }),
      sug("defer_task", "s_someday", { strategy: "someday" }),
      sug("set_priority", "s_high", { priority: "high" }),
      sug("propose_next_action", "s_next", { text: "Send Bruno an agenda" }),
    );
    const a = await json(await as("GET", `/v1/jobs/${jobId}/assist`));
    expect(a.suggestions.map((s: any) => [s.suggestion_id, s.applies_as])).toEqual([
      ["s_title", "card"],
      ["s_week", "card"],
      ["s_someday", "card"],
      ["s_high", "card"],
      ["s_next", "message"],
    ]);

    const dataDir = t.dataDir;
    await t.close();
    t = await startTestServer({ dataDir, keep: true, office: office(model.baseUrl) });

    const cards = (await formalizeCards()).length;
    const r = await as("POST", `/v1/jobs/${jobId}/assist/s_title/apply`, {}, "apply-title-0001");
    expect(r.status).toBe(202);
    const card = await nextCard(cards);
    expect(card.title).toBe("Intro call with Bruno");
    expect((await json(await as("GET", `/v1/jobs/${jobId}`))).title).toBe("Intro call with Bruno");
    // The person's part is the gateway's bubble; Office's follow-up names the change.
    const items = await timeline();
    expect(
      items.some((i) => i.message.kind === "system" && i.message.body_text?.includes("applied an Assist suggestion")),
    ).toBe(true);
  });

  it("a replay of the same key returns the stored response and executes nothing; another key finds it taken", async () => {
    // A high priority is one of the 001 changes that need the person's confirmation.
    const first = await as("POST", `/v1/jobs/${jobId}/assist/s_high/apply`, { confirm: true }, "apply-high-0001");
    expect(first.status).toBe(202);
    const stored = await json(first);
    expect(stored.created_event_ids).toHaveLength(1);
    const cards = await nextCard(2);
    expect(cards.job.priority).toBe("high");
    // The re-proposal keeps the title an earlier Apply gave the job.
    expect(cards.title).toBe("Intro call with Bruno");
    const seq = head();

    const replay = await as("POST", `/v1/jobs/${jobId}/assist/s_high/apply`, { confirm: true }, "apply-high-0001");
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(replay)).toEqual(stored);
    const other = await as("POST", `/v1/jobs/${jobId}/assist/s_high/apply`, { confirm: true }, "apply-high-0002");
    expect(other.status).toBe(404);
    expect((await json(other)).error.code).toBe("NOT_FOUND");
    await t.server.office.idle();
    await new Promise((r) => setTimeout(r, 100));
    expect(head()).toBe(seq);
    expect(await formalizeCards()).toHaveLength(3);
  });

  it("two clicks at once with different keys: one is carried out, the other rolls back with its bubble", async () => {
    scriptSuggestions(sug("set_priority", "s_low", { priority: "low" }));
    await as("GET", `/v1/jobs/${jobId}/assist`);
    const bubbles = async () =>
      (await timeline()).filter((i) => i.message.body_text?.includes("applied an Assist suggestion")).length;
    const before = await bubbles();
    const cards = (await formalizeCards()).length;
    const both = await Promise.all([
      as("POST", `/v1/jobs/${jobId}/assist/s_low/apply`, {}),
      as("POST", `/v1/jobs/${jobId}/assist/s_low/apply`, {}),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 404]);
    await nextCard(cards);
    expect(await bubbles()).toBe(before + 1);
    expect((await formalizeCards()).at(-1).job.priority).toBe("low");
  });

  it("defer_task sets the due date (next_week) or lowers the priority and drops it (someday)", async () => {
    const before = t.clock.now();
    expect((await as("POST", `/v1/jobs/${jobId}/assist/s_week/apply`, {})).status).toBe(202);
    const week = await nextCard(4);
    expect([deferral("next_week", before).due_at, deferral("next_week", t.clock.now()).due_at]).toContain(
      week.job.due_at,
    );
    // The earlier Apply's priority is kept on the new card.
    expect(week.job.priority).toBe("low");
    expect((await as("POST", `/v1/jobs/${jobId}/assist/s_someday/apply`, {})).status).toBe(202);
    const someday = await nextCard(5);
    expect(someday.job.priority).toBe("low");
    expect(someday.job.due_at).toBeUndefined();
    expect(someday.title).toBe("Intro call with Bruno");
  });

  it("a next action stays a proposal: the agent posts it in the chat with an ActionSummary", async () => {
    const cards = (await formalizeCards()).length;
    expect((await as("POST", `/v1/jobs/${jobId}/assist/s_next/apply`, {})).status).toBe(202);
    const msg = await waitFor(
      async () => (await timeline()).find((i) => i.message.body_text === "Proposed next step: Send Bruno an agenda"),
      10_000,
      "next-step message",
    );
    expect(msg.message.action_summary).toMatchObject({ job_id: jobId, action: "assist.propose_next_action" });
    expect(await formalizeCards()).toHaveLength(cards);
  });

  it("a past date needs confirm: true, and nothing is written until it comes", async () => {
    scriptSuggestions(sug("set_due_date", "s_past", { dueDateISO: "2020-01-06T10:00:00.000Z" }, true));
    const a = await json(await as("GET", `/v1/jobs/${jobId}/assist`));
    expect(a.suggestions.map((s: any) => s.suggestion_id)).toEqual(["s_past"]);
    const seq = head();
    const refused = await as("POST", `/v1/jobs/${jobId}/assist/s_past/apply`, {});
    expect(refused.status).toBe(400);
    const body = await json(refused);
    expect(body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "confirm" } });
    expect(head()).toBe(seq);
    const cards = (await formalizeCards()).length;
    expect((await as("POST", `/v1/jobs/${jobId}/assist/s_past/apply`, { confirm: true })).status).toBe(202);
    expect((await nextCard(cards)).job.due_at).toBe("2020-01-06T10:00:00.000Z");
  });

  it("an unknown suggestion, a malformed body or another job's id answers the standard error shape and writes nothing", async () => {
    const seq = head();
    for (const [path, body, status, code] of [
      [`/v1/jobs/${jobId}/assist/s_nope/apply`, {}, 404, "NOT_FOUND"],
      [`/v1/jobs/${jobId}/assist/s_title/apply`, {}, 404, "NOT_FOUND"],
      [`/v1/jobs/${jobId}/assist/s_past/apply`, { confirm: true, extra: 1 }, 400, "VALIDATION_ERROR"],
      [`/v1/jobs/job_missing/assist/s_past/apply`, {}, 404, "NOT_FOUND"],
    ] as const) {
      const r = await as("POST", path, body);
      expect(r.status, path).toBe(status);
      const e = (await json(r)).error;
      expect(e.code).toBe(code);
      expect(typeof e.message).toBe("string");
    }
    expect(head()).toBe(seq);
  });
});
