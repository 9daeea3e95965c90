import { describe, expect, it } from "vitest";
import { validateSuggestions, type SuggestionContext } from "../../../src/office/llm/suggestions.js";

const NOW = Date.parse("2026-02-14T12:00:00.000Z");
const ctx: SuggestionContext = {
  nowMs: NOW,
  requestId: "req_1",
  surface: "job_drawer",
  knownJobIds: new Set(["job_1"]),
  conversations: new Map([["cnv_web", "Website Redesign"]]),
  sourceText: "Please prepare the quarterly launch email for the whole marketing team before friday",
};
const s = (over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  type: "rewrite_title",
  suggestionId: "sug-1",
  confidence: 0.7,
  rationale: "Title is vague and can be made outcome-specific.",
  payload: { jobId: "job_1", title: "Draft Q1 launch email", ...payload },
  ...over,
});
const env = (suggestions: unknown[], over: Record<string, unknown> = {}) => ({
  contractVersion: 1,
  requestId: "model-id",
  surface: "job_drawer",
  must_abstain: false,
  suggestions,
  ...over,
});

describe("suggestion contract v1", () => {
  it("accepts a valid envelope; server id and time are canonical; unknown envelope fields ignored", () => {
    const r = validateSuggestions(env([s()], { generatedAt: "1999-01-01T00:00:00Z", extra: 1 }), ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.envelope).toMatchObject({
      requestId: "req_1",
      generatedAt: "2026-02-14T12:00:00.000Z",
      must_abstain: false,
      modelInfo: { modelGeneratedAt: "1999-01-01T00:00:00Z" },
    });
    expect(r.envelope).not.toHaveProperty("extra");
    expect(r.envelope.suggestions).toHaveLength(1);
  });

  const envelopeRejects: Array<[string, unknown]> = [
    ["not an object", "[]"],
    ["wrong contractVersion", env([s()], { contractVersion: 2 })],
    ["missing suggestions", { contractVersion: 1, surface: "job_drawer" }],
    ["invalid surface enum", env([s()], { surface: "inbox" })],
    ["answer for another surface", env([s()], { surface: "today_plan" })],
  ];
  it.each(envelopeRejects)("envelope hard reject: %s", (_n, raw) => {
    expect(validateSuggestions(raw, ctx).ok).toBe(false);
  });

  const rules: Array<[string, unknown, string]> = [
    ["unknown type", s({ type: "delete_job" }), "unknown type"],
    ["missing suggestionId", s({ suggestionId: undefined }), "suggestionId"],
    ["confidence above 1", s({ confidence: 1.2 }), "confidence"],
    ["confidence below 0", s({ confidence: -0.1 }), "confidence"],
    ["missing required payload key", s({}, { title: undefined }), "payload.title"],
    ["invalid priority enum", s({ type: "set_priority" }, { priority: "critical" }), "payload.priority"],
    ["invalid defer strategy", s({ type: "defer_task" }, { strategy: "tomorrow" }), "payload.strategy"],
    [
      "more than 5 subtasks",
      s(
        { type: "split_subtasks" },
        { subtasks: Array.from({ length: 6 }, (_, i) => ({ title: `Step ${i}`, order: i + 1 })) },
      ),
      "at most 5",
    ],
    ["zero subtasks", s({ type: "split_subtasks" }, { subtasks: [] }), "at least one"],
    ["rationale over 120 chars", s({ rationale: "x".repeat(121) }), "rationale"],
    ["rationale with markdown", s({ rationale: "**Because** it is vague" }), "plain text"],
    ["rationale with a link", s({ rationale: "see [this](https://x.example)" }), "plain text"],
    [
      "rationale quoting the person at length",
      s({ rationale: "prepare the quarterly launch email for the whole marketing" }),
      "quotes more than 40",
    ],
    [
      "past due date without confirmation",
      s({ type: "set_due_date" }, { dueDateISO: "2026-02-13T22:00:00Z" }),
      "in the past",
    ],
    [
      "past due date with requiresConfirmation=false",
      s({ type: "set_due_date", requiresConfirmation: false }, { dueDateISO: "2026-02-13T22:00:00Z" }),
      "in the past",
    ],
    [
      "set_conversation implying a new conversation",
      s({ type: "set_conversation" }, { conversationName: "Brand New" }),
      "propose_create_conversation",
    ],
    ["missing jobId on the drawer", s({}, { jobId: undefined }), "needs payload.jobId"],
    ["a jobId that was not offered", s({}, { jobId: "job_invented" }), "not a job offered"],
    [
      "clarification with one choice",
      s({ type: "ask_clarification" }, { questionId: "q1", question: "Which?", choices: ["A"] }),
      "2 to 5",
    ],
    [
      "clarification with six choices",
      s(
        { type: "ask_clarification" },
        { questionId: "q1", question: "Which?", choices: ["A", "B", "C", "D", "E", "F"] },
      ),
      "2 to 5",
    ],
  ];
  it.each(rules)("suggestion reject: %s (and must_abstain when nothing is left)", (_n, bad, reason) => {
    const r = validateSuggestions(env([bad]), ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.rejected).toHaveLength(1);
    expect(r.rejected[0]!.reason).toContain(reason);
    expect(r.envelope.suggestions).toEqual([]);
    expect(r.envelope.must_abstain).toBe(true);
  });

  it("only one ask_clarification per response: the second is rejected, the rest kept", () => {
    const q = (id: string) =>
      s(
        { type: "ask_clarification", suggestionId: id },
        { questionId: `q-${id}`, question: "Which project?", choices: ["Website Redesign", "No project"] },
      );
    const r = validateSuggestions(env([q("a"), q("b"), s({ suggestionId: "c" })]), ctx);
    expect(r.ok && r.envelope.suggestions.map((x) => x.suggestionId)).toEqual(["a", "c"]);
    expect(r.ok && r.rejected[0]).toMatchObject({
      suggestionId: "b",
      reason: "more than one ask_clarification in one response",
    });
    expect(r.ok && r.envelope.must_abstain).toBe(false);
  });

  it("unknown payload keys are stripped, then required keys validated", () => {
    const r = validateSuggestions(env([s({}, { html: "<b>x</b>", onApply: "DROP" })]), ctx);
    expect(r.ok && r.envelope.suggestions[0]!.payload).toEqual({ jobId: "job_1", title: "Draft Q1 launch email" });
  });

  it("a past date with requiresConfirmation=true is kept; escalating priority forces confirmation", () => {
    const r = validateSuggestions(
      env([
        s(
          { type: "set_due_date", suggestionId: "d", requiresConfirmation: true },
          { dueDateISO: "2026-02-13T22:00:00Z" },
        ),
        s({ type: "set_priority", suggestionId: "p" }, { priority: "high" }),
        s({ type: "set_conversation", suggestionId: "c" }, { conversationName: "website redesign" }),
        s(
          { type: "split_subtasks", suggestionId: "t" },
          {
            subtasks: [
              { title: "Collect", order: 1 },
              { title: "Draft", order: 2 },
            ],
          },
        ),
      ]),
      ctx,
    );
    expect(r.ok && r.envelope.suggestions.map((x) => [x.suggestionId, x.requiresConfirmation])).toEqual([
      ["d", true],
      ["p", true],
      ["c", undefined],
      ["t", undefined],
    ]);
  });

  it("on_create accepts a jobTempId; propose_create_conversation needs no target", () => {
    const r = validateSuggestions(
      env(
        [
          s({}, { jobId: undefined, jobTempId: "tmp-1" }),
          s({ type: "propose_create_conversation", suggestionId: "n" }, { conversationName: "Launch" }),
        ],
        {
          surface: "on_create",
        },
      ),
      { ...ctx, surface: "on_create" },
    );
    expect(r.ok && r.envelope.suggestions).toHaveLength(2);
  });

  it("the model's must_abstain=true is honoured even with valid suggestions", () => {
    const r = validateSuggestions(env([s()], { must_abstain: true }), ctx);
    expect(r.ok && r.envelope.must_abstain).toBe(true);
  });
});
