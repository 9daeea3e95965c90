import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, waitFor } from "../support/server.js";
import { fillInput } from "../support/golden.js";

let t: TestServer;
let dan: string;
let ana: string;
const req = async (path: string, init: RequestInit = {}): Promise<Response> => t.server.app.request(path, init);
const post = (path: string, body: unknown, headers: Record<string, string> = {}, token = dan) =>
  req(path, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": `k${Math.random()}`,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const get = (path: string, token = dan) => req(path, { headers: { authorization: `Bearer ${token}` } });
const errorOf = async (res: Response) => {
  const b = (await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } };
  expect(typeof b.error.message).toBe("string");
  return b.error;
};
const timeline = async (cid = "cnv_9f2a") =>
  ((await (await get(`/v1/conversations/${cid}/timeline?limit=1000`)).json()) as { items: any[] }).items;

let formalize: any;

beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
  ana = t.demo.humans[1]!.token;
  expect(
    (
      await post("/v1/conversations/cnv_9f2a/messages", {
        kind: "text",
        body_text: "Can you schedule a 30-min call with Maria next week?",
      })
    ).status,
  ).toBe(202);
  formalize = await waitFor(
    async () => (await timeline()).find((i) => i.message.card?.card_type === "job.formalize")?.message.card,
    5000,
    "formalize card",
  );
});
afterAll(() => t.close());

const approveBody = () => {
  const b = formalize.buttons.find((x: any) => x.action.type === "job.approve");
  return { card_id: formalize.card_id, button_id: b.button_id, action: b.action };
};

describe("idempotency", () => {
  it("replays the stored response for the same key and body, executing nothing", async () => {
    const body = { kind: "text", body_text: "hello once" };
    const a = await post("/v1/conversations/cnv_dan_ana/messages", body, { "idempotency-key": "same-1" });
    const b = await post("/v1/conversations/cnv_dan_ana/messages", body, { "idempotency-key": "same-1" });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(await b.json()).toEqual(await a.json());
    expect((await timeline("cnv_dan_ana")).filter((i) => i.message.body_text === "hello once")).toHaveLength(1);
  });

  it("answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body", async () => {
    await post(
      "/v1/conversations/cnv_dan_ana/messages",
      { kind: "text", body_text: "one" },
      { "idempotency-key": "same-2" },
    );
    const res = await post(
      "/v1/conversations/cnv_dan_ana/messages",
      { kind: "text", body_text: "two" },
      { "idempotency-key": "same-2" },
    );
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("scopes keys per entity: Ana's key equal to Dan's is hers alone", async () => {
    const body = { kind: "text", body_text: "scoped" };
    expect(
      (await post("/v1/conversations/cnv_dan_ana/messages", body, { "idempotency-key": "shared-key" })).status,
    ).toBe(202);
    const res = await post("/v1/conversations/cnv_dan_ana/messages", body, { "idempotency-key": "shared-key" }, ana);
    expect(res.status).toBe(202);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });

  it("requires a key of 1–255 printable characters", async () => {
    const body = { kind: "text", body_text: "x" };
    for (const [headers, what] of [
      [{ "idempotency-key": "" }, "empty"],
      [{ "idempotency-key": "k".repeat(10 * 1024) }, "10 KB"],
      [{ "idempotency-key": "k".repeat(256) }, "256"],
    ] as const) {
      const res = await post("/v1/conversations/cnv_dan_ana/messages", body, headers);
      expect(res.status, what).toBe(400);
      expect((await errorOf(res)).code).toBe("VALIDATION_ERROR");
    }
    const none = await req("/v1/conversations/cnv_dan_ana/messages", {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).details?.field).toBe("Idempotency-Key");
  });

  it("two concurrent identical Approve clicks make exactly one transition", async () => {
    const body = approveBody();
    const [a, b] = await Promise.all([
      post(`/v1/jobs/${formalize.job_id}/actions`, body, { "idempotency-key": "approve-1" }),
      post(`/v1/jobs/${formalize.job_id}/actions`, body, { "idempotency-key": "approve-1" }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(202);
    expect([202, 409]).toContain(statuses[1]);
    if (statuses[1] === 409) expect((await errorOf(a.status === 409 ? a : b)).code).toBe("IDEMPOTENCY_IN_PROGRESS");
    const again = await post(`/v1/jobs/${formalize.job_id}/actions`, body, { "idempotency-key": "approve-1" });
    expect(again.status).toBe(202);
    await waitFor(
      async () => ((await (await get(`/v1/jobs/${formalize.job_id}`)).json()) as any).state === "waiting_input",
      5000,
      "waiting_input",
    );
    const job = (await (await get(`/v1/jobs/${formalize.job_id}`)).json()) as any;
    expect(job.raw_events.filter((e: any) => e.event_type === "job.approved")).toHaveLength(1);
    expect((await timeline()).filter((i) => i.message.action?.type === "job.approve")).toHaveLength(1);
  });
});

describe("job actions: provenance and input", () => {
  it("refuses unknown jobs and cards, forged buttons and mismatched action types", async () => {
    const ok = approveBody();
    const unknownJob = await post(`/v1/jobs/job_nope/actions`, ok);
    expect(unknownJob.status).toBe(404);
    expect((await errorOf(unknownJob)).code).toBe("NOT_FOUND");
    const cases: Array<[string, unknown]> = [
      ["unknown card", { ...ok, card_id: "card_forged" }],
      ["forged button", { ...ok, button_id: "btn_forged" }],
      ["action not matching the button", { ...ok, action: { type: "job.cancel", job_id: formalize.job_id } }],
      ["action naming another job", { ...ok, action: { type: "job.approve", job_id: "job_other" } }],
    ];
    const messages: string[] = [];
    for (const [what, body] of cases) {
      const res = await post(`/v1/jobs/${formalize.job_id}/actions`, body);
      expect(res.status, what).toBe(422);
      const err = await errorOf(res);
      expect(err.code, what).toBe("INVALID_PROVENANCE");
      messages.push(err.message);
    }
    // each refusal says what was wrong, so a client can tell them apart
    expect(new Set(messages).size).toBe(cases.length);
  });

  it("answers INVALID_INPUT with field details at once when the modal's input is wrong", async () => {
    const tracking = await waitFor(
      async () => (await timeline()).filter((i) => i.message.card?.card_type === "job.tracking").at(-1)?.message.card,
      5000,
      "tracking",
    );
    const btn = tracking.buttons.find((b: any) => b.action.type === "job.provide_input");
    const input = fillInput(btn.action.input_schema);
    for (const k of Object.keys(input)) if (/email|contact/.test(k)) input[k] = "not-an-email";
    const res = await post(`/v1/jobs/${tracking.job_id}/actions`, {
      card_id: tracking.card_id,
      button_id: btn.button_id,
      action: btn.action,
      input: Object.fromEntries(Object.entries(input).slice(0, 0)),
    });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.details?.fields).toBeTruthy();
  });
});

describe("bad input answers the standard error shape and writes nothing", () => {
  it("invalid JSON, wrong content type, unknown fields, missing fields", async () => {
    const before = (await timeline("cnv_dan_ana")).length;
    const cases: Array<[string, () => Promise<Response>, number, string]> = [
      ["invalid json", () => post("/v1/conversations/cnv_dan_ana/messages", "{not json"), 400, "INVALID_JSON"],
      [
        "unknown field",
        () => post("/v1/conversations/cnv_dan_ana/messages", { kind: "text", body_text: "x", extra: 1 }),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "missing body_text",
        () => post("/v1/conversations/cnv_dan_ana/messages", { kind: "text" }),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "blank body_text",
        () => post("/v1/conversations/cnv_dan_ana/messages", { kind: "text", body_text: " \n\t " }),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "unknown kind",
        () => post("/v1/conversations/cnv_dan_ana/messages", { kind: "html", body_text: "x" }),
        400,
        "VALIDATION_ERROR",
      ],
      [
        "form body",
        () =>
          post("/v1/conversations/cnv_dan_ana/messages", "a=b", {
            "content-type": "application/x-www-form-urlencoded",
          }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      ],
      [
        "unknown conversation",
        () => post("/v1/conversations/cnv_nope/messages", { kind: "text", body_text: "x" }),
        404,
        "NOT_FOUND",
      ],
      [
        "not a participant",
        () => post("/v1/conversations/cnv_9f2a/messages", { kind: "text", body_text: "x" }, {}, ana),
        404,
        "NOT_FOUND",
      ],
      ["bad read cursor", () => post("/v1/conversations/cnv_dan_ana/read", { cursor: "abc" }), 400, "VALIDATION_ERROR"],
      [
        "future read cursor",
        () => post("/v1/conversations/cnv_dan_ana/read", { cursor: "seq:99999" }),
        404,
        "NOT_FOUND",
      ],
      [
        "unknown participant",
        () => post("/v1/conversations", { participants: [{ entity_id: "ent_nobody" }] }),
        404,
        "NOT_FOUND",
      ],
      [
        "job action missing card",
        () =>
          post(`/v1/jobs/${formalize.job_id}/actions`, {
            button_id: "b",
            action: { type: "job.approve", job_id: formalize.job_id },
          }),
        400,
        "VALIDATION_ERROR",
      ],
    ];
    for (const [what, run, status, code] of cases) {
      const res = await run();
      expect(res.status, what).toBe(status);
      expect((await errorOf(res)).code, what).toBe(code);
    }
    expect((await timeline("cnv_dan_ana")).length).toBe(before);
  });

  it("caps bodies at 1 MiB, chunked ones too", async () => {
    const big = JSON.stringify({ kind: "text", body_text: "x".repeat(1024 * 1024) });
    const res = await post("/v1/conversations/cnv_dan_ana/messages", big);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("PAYLOAD_TOO_LARGE");
    // a real chunked upload (no Content-Length) over the socket
    const chunks = new ReadableStream({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
        c.close();
      },
    });
    const r2 = await fetch(`${t.url}/v1/conversations/cnv_dan_ana/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "content-type": "application/json", "idempotency-key": "chunked-1" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(r2.status).toBe(413);
  });
});

describe("auth", () => {
  it("refuses missing, malformed, unknown and revoked tokens", async () => {
    expect((await req("/v1/conversations")).status).toBe(401);
    expect((await req("/v1/conversations", { headers: { authorization: "Basic abc" } })).status).toBe(401);
    const unknown = await get("/v1/conversations", "llt_unknown");
    expect(unknown.status).toBe(401);
    expect((await errorOf(unknown)).code).toBe("UNAUTHORIZED");
    const extra = t.server.gateway.tokens.issue({ tenantId: "tnt_acme_001", entityId: "ent_human_ana" });
    expect((await get("/v1/conversations", extra)).status).toBe(200);
    const out = await req("/v1/session", { method: "DELETE", headers: { authorization: `Bearer ${extra}` } });
    expect(out.status).toBe(200);
    expect((await get("/v1/conversations", extra)).status).toBe(401);
  });

  it("cookie sessions: HttpOnly SameSite=Strict cookie; writes need the CSRF header and our own Origin", async () => {
    const s = await req("/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: dan }),
    });
    expect(s.status).toBe(200);
    const cookie = s.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    const jar = cookie.split(";")[0]!;
    expect((await req("/v1/conversations", { headers: { cookie: jar } })).status).toBe(200);
    const write = (h: Record<string, string>) =>
      req("/v1/conversations/cnv_dan_ana/messages", {
        method: "POST",
        headers: {
          cookie: jar,
          "content-type": "application/json",
          "idempotency-key": `c${Math.random()}`,
          host: "localhost",
          ...h,
        },
        body: JSON.stringify({ kind: "text", body_text: "via cookie" }),
      });
    const noCsrf = await write({});
    expect(noCsrf.status).toBe(403);
    expect((await errorOf(noCsrf)).code).toBe("FORBIDDEN");
    expect((await write({ "x-logline-csrf": "1", origin: "https://evil.example" })).status).toBe(403);
    expect((await write({ "x-logline-csrf": "1", origin: "http://localhost" })).status).toBe(202);
    expect((await write({ "x-logline-csrf": "1" })).status).toBe(202);
  });

  it("the demo sign-in link sets the cookie and redirects to a clean URL", async () => {
    const res = await req(`/signin?token=${encodeURIComponent(dan)}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("set-cookie")).toMatch(/ll_session=/);
    const bad = await req("/signin?token=nope");
    expect(bad.status).toBe(302);
    expect(bad.headers.get("set-cookie")).toBeNull();
  });

  it("a body tenant_id or actor_entity_id naming someone else is FORBIDDEN", async () => {
    const a = await post("/v1/conversations/cnv_dan_ana/messages", {
      kind: "text",
      body_text: "x",
      tenant_id: "tnt_other",
    });
    expect(a.status).toBe(403);
    const b = await post("/v1/conversations/cnv_dan_ana/messages", {
      kind: "text",
      body_text: "x",
      actor_entity_id: "ent_human_ana",
    });
    expect(b.status).toBe(403);
    const c = await get("/v1/conversations?tenant_id=tnt_other");
    expect(c.status).toBe(403);
  });
});

describe("rate limit", () => {
  it("answers RATE_LIMITED with Retry-After when one entity floods", async () => {
    const small = await startTestServer({ rateLimit: { capacity: 5, refillPerSecond: 0.5 } });
    try {
      const tok = small.demo.humans[1]!.token;
      const statuses: number[] = [];
      let limited: Response | undefined;
      for (let i = 0; i < 8; i++) {
        const res = await small.server.app.request("/v1/conversations/cnv_dan_ana/messages", {
          method: "POST",
          headers: { authorization: `Bearer ${tok}`, "content-type": "application/json", "idempotency-key": `f${i}` },
          body: JSON.stringify({ kind: "text", body_text: `flood ${i}` }),
        });
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      expect(statuses.filter((s) => s === 202)).toHaveLength(5);
      expect(limited).toBeDefined();
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await errorOf(limited!)).code).toBe("RATE_LIMITED");
    } finally {
      await small.close();
    }
  });
});

describe("timeline job heads", () => {
  it("names each carded job's current state, so a job rejected without a later card does not look open after a reload", async () => {
    const own = await startTestServer();
    try {
      const tok = own.demo.humans[0]!.token;
      const call = (path: string, body?: unknown) =>
        own.server.app.request(path, {
          ...(body ? { method: "POST", body: JSON.stringify(body) } : {}),
          headers: {
            authorization: `Bearer ${tok}`,
            "content-type": "application/json",
            "idempotency-key": `k${Math.random()}`,
          },
        });
      const page = async () =>
        (await (await call("/v1/conversations/cnv_9f2a/timeline")).json()) as { items: any[]; jobs: any[] };
      expect(
        (
          await call("/v1/conversations/cnv_9f2a/messages", {
            kind: "text",
            body_text: "Can you schedule a 30-min call with Maria next week?",
          })
        ).status,
      ).toBe(202);
      const card = await waitFor(
        async () => (await page()).items.find((i) => i.message.card)?.message.card,
        5000,
        "formalize card",
      );
      expect((await page()).jobs).toEqual([expect.objectContaining({ job_id: card.job_id, state: "proposed" })]);
      const reject = card.buttons.find((b: any) => b.action.type === "job.reject");
      expect(
        (
          await call(`/v1/jobs/${card.job_id}/actions`, {
            card_id: card.card_id,
            button_id: reject.button_id,
            action: reject.action,
          })
        ).status,
      ).toBe(202);
      const after = await waitFor(
        async () => {
          const p = await page();
          return p.jobs[0]?.state === "rejected" ? p : undefined;
        },
        5000,
        "rejected head",
      );
      // The only card still says proposed; the head is what tells the client it is over.
      expect(after.items.filter((i) => i.message.card).map((i) => i.message.card.state)).toEqual(["proposed"]);
      expect(after.jobs[0]).toMatchObject({ job_id: card.job_id, title: card.title, available_actions: [] });
    } finally {
      await own.close();
    }
  });
});
