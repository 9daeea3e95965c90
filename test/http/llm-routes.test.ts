import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * The LLM layer's routes with the rules planner (offline): token check before storing,
 * ThreadContext pin/target, Assist and Apply, the drawer's LLM section, bad input and tenancy.
 */
let t: TestServer;
let dan: string;
let bob: string;
let jobId: string;
const C = "cnv_9f2a";
const as = (token: string, method: string, path: string, body?: unknown, key?: string) =>
  t.server.app.request(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method !== "GET" ? { "idempotency-key": key ?? `k${Math.random()}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const json = async (r: Response) => (await r.json()) as any;
const timeline = async () => (await json(await as(dan, "GET", `/v1/conversations/${C}/timeline`))).items as any[];
const ref = (id: string, name: string) => `[ref v:1 type:"job" id:"${id}" name:"${name}"]`;

beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
  const ws = await t.server.app.request("/v1/workspaces", {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": "workspace-bob-llm-0001" },
    body: JSON.stringify({ name: "Bob's Bakery", owner: { display_name: "Bob" } }),
  });
  bob = ((await ws.json()) as any).token;
  expect(
    (
      await as(dan, "POST", `/v1/conversations/${C}/messages`, {
        kind: "text",
        body_text: "Can you schedule a 30-min call with Maria next week?",
      })
    ).status,
  ).toBe(202);
  jobId = await waitFor(
    async () => (await timeline()).find((i) => i.message.card)?.message.card.job_id as string | undefined,
  );
});
afterAll(() => t.close());

describe("tokens are checked before a message is stored", () => {
  it("a malformed token is a 422 INVALID_TOKEN and nothing is written", async () => {
    const before = t.server.ledger.head(t.demo.tenant_id).tenant_seq;
    for (const bad of [
      `[ref v:2 type:"job" id:"${jobId}" name:"x"]`,
      `[ref v:1 type:"job" id:"job_nope" name:"x"]`,
      `[ref v:1 type:"job" id:"${jobId}" id:"${jobId}"]`,
      `[ref v:1 type:"job" id:"${jobId}`,
    ]) {
      const r = await as(dan, "POST", `/v1/conversations/${C}/messages`, { kind: "text", body_text: `please ${bad}` });
      expect(r.status, bad).toBe(422);
      const body = await json(r);
      expect(body.error.code).toBe("INVALID_TOKEN");
      expect(body.error.message.length).toBeGreaterThan(5);
      expect(body.error.details.token_code).toMatch(/^TOKEN_/);
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(t.server.ledger.head(t.demo.tenant_id).tenant_seq).toBe(before);
  });

  it("an op the job's state refuses is a 422 too", async () => {
    const r = await as(dan, "POST", `/v1/conversations/${C}/messages`, {
      kind: "text",
      body_text: `[op v:1 type:"retry" job:"${jobId}"]`,
    });
    expect(r.status).toBe(422);
    expect((await json(r)).error.details.token_code).toBe("TOKEN_NOT_ALLOWED");
  });

  it("a valid reference is stored with its token and answered with the job as target", async () => {
    const r = await as(dan, "POST", `/v1/conversations/${C}/messages`, {
      kind: "text",
      body_text: `status of ${ref(jobId, "Schedule call with Maria")}?`,
    });
    expect(r.status).toBe(202);
    await waitFor(async () => (await timeline()).some((i) => i.message.body_text?.includes("[ref v:1")));
    // Office reads the token after the 202: the reference becomes the conversation's last job.
    await waitFor(
      async () => (await json(await as(dan, "GET", `/v1/conversations/${C}/context`))).last_job_id === jobId,
      3000,
      "last_job_id",
    );
  });
});

describe("ThreadContext: pin and Change target", () => {
  it("pins, changes the target and unpins, persisted and idempotent", async () => {
    const pin = await as(dan, "POST", `/v1/conversations/${C}/context/pin`, { job_id: jobId }, "pin-key-1");
    expect(pin.status).toBe(200);
    expect((await json(pin)).pinned_job_id).toBe(jobId);
    const again = await as(dan, "POST", `/v1/conversations/${C}/context/pin`, { job_id: jobId }, "pin-key-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const target = await json(await as(dan, "POST", `/v1/conversations/${C}/context/target`, { job_id: jobId }));
    expect(target.target_job_id).toBe(jobId);
    expect((await json(await as(dan, "GET", `/v1/conversations/${C}/context`))).pinned_job_id).toBe(jobId);
    const unpin = await json(await as(dan, "POST", `/v1/conversations/${C}/context/pin`, { job_id: null }));
    expect(unpin.pinned_job_id).toBeNull();
  });

  it("bad input answers the standard error shape", async () => {
    for (const body of [{}, { job_id: 42 }, { job_id: jobId, extra: 1 }]) {
      const r = await as(dan, "POST", `/v1/conversations/${C}/context/pin`, body);
      expect(r.status).toBe(400);
      expect((await json(r)).error.code).toBe("VALIDATION_ERROR");
    }
    const missing = await as(dan, "POST", `/v1/conversations/${C}/context/target`, { job_id: "job_unknown" });
    expect(missing.status).toBe(404);
    const noKey = await t.server.app.request(`/v1/conversations/${C}/context/pin`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(noKey.status).toBe(400);
    expect(Object.keys((await json(noKey)).error)).toEqual(expect.arrayContaining(["code", "message"]));
  });
});

describe("Assist", () => {
  it("lists validated suggestions from the job's slots and applies one by re-proposing the Formalize card", async () => {
    const r = await as(dan, "GET", `/v1/jobs/${jobId}/assist`);
    expect(r.status).toBe(200);
    const a = await json(r);
    expect(a.source).toBe("rules");
    const types = a.suggestions.map((s: any) => s.type);
    expect(types).toEqual(expect.arrayContaining(["split_subtasks", "set_due_date"]));
    const split = a.suggestions.find((s: any) => s.type === "split_subtasks");
    const cards = (await timeline()).filter((i) => i.message.card?.card_type === "job.formalize").length;
    const applied = await as(dan, "POST", `/v1/jobs/${jobId}/assist/${split.suggestion_id}/apply`, {});
    expect(applied.status).toBe(202);
    const card = await waitFor(async () => {
      const f = (await timeline()).filter((i) => i.message.card?.card_type === "job.formalize");
      return f.length > cards ? f.at(-1)!.message.card : undefined;
    });
    expect(card.plan_hint).toEqual(split.payload.subtasks.map((s: any) => s.title));
    const drawer = await json(await as(dan, "GET", `/v1/jobs/${jobId}`));
    expect(drawer.llm).toEqual({ packets: [], proposals: [] });
    // Applied once: the same suggestion is no longer offered.
    const twice = await as(dan, "POST", `/v1/jobs/${jobId}/assist/${split.suggestion_id}/apply`, {});
    expect(twice.status).toBe(404);
  });

  it("refuses bad ids and bodies with the standard shape", async () => {
    expect((await as(dan, "GET", `/v1/jobs/job_missing/assist`)).status).toBe(404);
    const bad = await as(dan, "POST", `/v1/jobs/${jobId}/assist/sug%20x/apply`, {});
    expect(bad.status).toBe(400);
    const extra = await as(dan, "POST", `/v1/jobs/${jobId}/assist/sug_x/apply`, { confirm: "yes" });
    expect((await json(extra)).error.code).toBe("VALIDATION_ERROR");
    const unknown = await as(dan, "POST", `/v1/jobs/${jobId}/assist/sug_unknown/apply`, {});
    expect(unknown.status).toBe(404);
  });
});

describe("tenancy", () => {
  it("another tenant's conversation and job answer NOT_FOUND on every LLM route", async () => {
    const cases: Array<[string, string, unknown?]> = [
      ["GET", `/v1/conversations/${C}/context`],
      ["POST", `/v1/conversations/${C}/context/pin`, { job_id: jobId }],
      ["POST", `/v1/conversations/${C}/context/target`, { job_id: null }],
      ["GET", `/v1/jobs/${jobId}/assist`],
      ["POST", `/v1/jobs/${jobId}/assist/sug_anything/apply`, {}],
    ];
    for (const [method, path, body] of cases) {
      const r = await as(bob, method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect((await json(r)).error.code).toBe("NOT_FOUND");
    }
  });
});
