import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "../office/llm/scripted-model.js";
import { REPLIES } from "../office/llm/harness.js";
import { startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * The golden path end to end through the gateway with OFFICE_PLANNER=llm pointing at the
 * scripted OpenAI-compatible server: propose → approve → details by chat (with an email) → the
 * invite runs. Every validated OFFICE_LLM_* setting reaches the wire, the agent's messages carry
 * the structured ActionSummary, surfaces and safe render, and the ledger holds no raw email,
 * no HTML and no unsafe link.
 */
let t: TestServer;
let model: ScriptedModel;
let dan: string;
const C = "cnv_9f2a";
const as = (method: string, path: string, body?: unknown) =>
  t.server.app.request(path, {
    method,
    headers: {
      authorization: `Bearer ${dan}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method !== "GET" ? { "idempotency-key": `k${Math.random()}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const json = async (r: Response) => (await r.json()) as any;
const timeline = async () => (await json(await as("GET", `/v1/conversations/${C}/timeline`))).items as any[];
const op = (answer: Record<string, unknown>) => ({
  type: null,
  text: null,
  job_id: null,
  action: null,
  kind: null,
  title: null,
  goal: null,
  slots: null,
  choices: null,
  ...answer,
});

beforeAll(async () => {
  model = await startScriptedModel();
  t = await startTestServer({
    office: {
      planner: "llm",
      llm: {
        baseUrl: model.baseUrl,
        model: "scripted",
        timeoutMs: 3000,
        logFull: false,
        maxTokens: 321,
        responseFormat: "json_object",
        extraBody: { think: false },
      },
    },
  });
  dan = t.demo.humans[0]!.token;
});
afterAll(async () => {
  await t.close();
  await model.close();
});

describe("golden path through the gateway with the scripted model", () => {
  it("reports the LLM planner on /healthz", async () => {
    expect((await json(await t.server.app.request("/healthz"))).planner).toBe("llm");
  });

  it("proposes, takes details by chat with an ActionSummary and a surface, finishes, and keeps the ledger clean", async () => {
    model.script({ content: REPLIES.correct_propose! });
    expect(
      (
        await as("POST", `/v1/conversations/${C}/messages`, {
          kind: "text",
          body_text: "Can you schedule a 30-min call with Bruno next week?",
        })
      ).status,
    ).toBe(202);
    const card = await waitFor(
      async () => (await timeline()).find((i) => i.message.card?.card_type === "job.formalize")?.message.card,
      10_000,
      "Formalize card",
    );
    const sent = model.requests.find((r) => r.path === "/v1/chat/completions")!.body;
    expect(sent.max_tokens).toBe(321);
    expect((sent.response_format as any).type).toBe("json_object");
    expect(sent.think).toBe(false);

    const approve = card.buttons.find((b: any) => b.action.type === "job.approve");
    expect(
      (
        await as("POST", `/v1/jobs/${card.job_id}/actions`, {
          card_id: card.card_id,
          button_id: approve.button_id,
          action: approve.action,
        })
      ).status,
    ).toBe(202);
    await waitFor(async () => (await json(await as("GET", `/v1/jobs/${card.job_id}`))).state === "waiting_input");

    const cancelOp = `[op v:1 type:"cancel" job:"${card.job_id}"]`;
    model.script({
      content: JSON.stringify({
        operations: [
          op({
            type: "provide_input",
            job_id: card.job_id,
            slots: {
              duration_minutes: null,
              attendee_name: null,
              attendee_email: "bruno@acme.com",
              time_window: "Tuesday 14:00-16:00",
              timezone: "Europe/Lisbon",
              meeting_link: "jitsi",
              title: null,
              day_hint: null,
            },
          }),
        ],
        surfaces: [
          {
            surface_id: "next-1",
            kind: "what_next_v1",
            title: "What's next",
            payload: {
              headline: "Invite on its way",
              body: null,
              targetJobId: card.job_id,
              primaryAction: { label: "Cancel it", opToken: cancelOp, confirm: true },
              secondaryActions: null,
              notes: null,
            },
          },
        ],
        render: null,
        citations: null,
      }),
    });
    expect(
      (
        await as("POST", `/v1/conversations/${C}/messages`, {
          kind: "text",
          body_text: "Bruno is bruno@acme.com, Tuesday 14:00-16:00 Lisbon, Google Meet",
        })
      ).status,
    ).toBe(202);
    const summaryItem = await waitFor(
      async () => (await timeline()).find((i) => i.message.action_summary),
      10_000,
      "ActionSummary",
    );
    expect(summaryItem.message.action_summary).toMatchObject({
      job_id: card.job_id,
      job_title: card.title,
      assumed: true,
      action: "provide_input",
    });
    expect(summaryItem.message.body_text).toMatch(/^Applied to: /);
    expect(summaryItem.message.surfaces[0].payload.primaryAction.opToken).toBe(cancelOp);
    await waitFor(
      async () => (await json(await as("GET", `/v1/jobs/${card.job_id}`))).state === "completed",
      8000,
      "completed",
    );

    model.script({ content: REPLIES.javascript_link! });
    expect((await as("POST", `/v1/conversations/${C}/messages`, { kind: "text", body_text: "Any docs?" })).status).toBe(
      202,
    );
    const rich = await waitFor(async () => (await timeline()).find((i) => i.message.render));
    const links = JSON.stringify(rich.message.render);
    expect(links).toContain("https://example.com/docs");
    expect(links).not.toMatch(/script:/i);

    const drawer = await json(await as("GET", `/v1/jobs/${card.job_id}`));
    expect(drawer.llm.proposals.length).toBeGreaterThan(0);
    expect(
      drawer.llm.proposals.some((p: any) => p.proposed.includes("provide_input") && p.outcome === "executed"),
    ).toBe(true);
    expect(JSON.stringify(drawer.llm.packets)).not.toContain("bruno@acme.com");

    const all = JSON.stringify(t.server.ledger.query({ tenant_id: t.demo.tenant_id, limit: 1000 }).events);
    expect(all).not.toContain("bruno@acme.com");
    expect(all).not.toMatch(/javascript:|java\\tscript|<script/i);
    expect(t.server.ledger.verify(t.demo.tenant_id).ok).toBe(true);
    // Exactly one model call per message: propose, details, docs.
    expect(model.completionCalls()).toBe(3);
  });

  it("Assist makes one model call and shows only what the 001 rules keep", async () => {
    const jobId = (await timeline()).find((i) => i.message.card)!.message.card.job_id;
    const before = model.completionCalls();
    model.script({
      content: JSON.stringify({
        contractVersion: 1,
        surface: "job_drawer",
        must_abstain: false,
        suggestions: [
          {
            type: "propose_next_action",
            suggestionId: "s1",
            confidence: 0.8,
            rationale: "Agenda helps",
            requiresConfirmation: false,
            payload: {
              jobId,
              text: "Send an agenda",
              title: null,
              dueDateISO: null,
              priority: null,
              subtasks: null,
              questionId: null,
              question: null,
              choices: null,
              strategy: null,
            },
          },
          {
            type: "set_priority",
            suggestionId: "s2",
            confidence: 1.5,
            rationale: "bad confidence",
            requiresConfirmation: false,
            payload: { jobId, priority: "high" },
          },
          {
            type: "rewrite_title",
            suggestionId: "s3",
            confidence: 0.5,
            rationale: "Other job",
            requiresConfirmation: false,
            payload: { jobId: "job_invented", title: "X" },
          },
        ],
      }),
    });
    const a = await json(await as("GET", `/v1/jobs/${jobId}/assist`));
    expect(model.completionCalls()).toBe(before + 1);
    expect(a.source).toBe("llm");
    expect(a.suggestions.map((s: any) => s.suggestion_id)).toEqual(["s1"]);
    expect(a.rejected.map((r: any) => r.suggestion_id).sort()).toEqual(["s2", "s3"]);
    // A next action is a proposal: the drawer says it is posted in the chat, not put on the card.
    expect(a.suggestions[0].applies_as).toBe("message");
    const applied = await as("POST", `/v1/jobs/${jobId}/assist/s1/apply`, {});
    expect(applied.status).toBe(202);
    await waitFor(async () =>
      (await timeline()).some(
        (i) =>
          i.message.body_text === "Proposed next step: Send an agenda" &&
          i.message.action_summary?.action === "assist.propose_next_action",
      ),
    );
  });
});
