import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * Two tenants on one server. Every route is called by tenant B with tenant A's ids (path, body,
 * query, cursor, Last-Event-ID): each answers NOT_FOUND (or FORBIDDEN for a tenant_id that
 * names another tenant), and nothing of A leaks.
 */
let t: TestServer;
let dan: string; // tenant A (demo)
let bob: string; // tenant B
let bobId: string;
let jobA: any;
const req = async (path: string, init: RequestInit = {}): Promise<Response> => t.server.app.request(path, init);
const as = (token: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
  req(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method !== "GET" ? { "idempotency-key": `k${Math.random()}` } : {}),
      ...extra,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
  const ws = await req("/v1/workspaces", {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": "workspace-bob-0001" },
    body: JSON.stringify({ name: "Bob's Bakery", owner: { display_name: "Bob" } }),
  });
  expect(ws.status).toBe(201);
  const b = (await ws.json()) as { token: string; owner_entity_id: string; tenant_id: string };
  bob = b.token;
  bobId = b.owner_entity_id;
  expect(
    (
      await as(dan, "POST", "/v1/conversations/cnv_9f2a/messages", {
        kind: "text",
        body_text: "Can you schedule a 30-min call with Maria next week?",
      })
    ).status,
  ).toBe(202);
  jobA = await waitFor(async () => {
    const items = ((await (await as(dan, "GET", "/v1/conversations/cnv_9f2a/timeline")).json()) as any).items as any[];
    return items.find((i) => i.message.card)?.message.card;
  });
});
afterAll(() => t.close());

describe("tenant isolation", () => {
  it("answers NOT_FOUND for another tenant's objects on every route", async () => {
    const btn = jobA.buttons[0];
    const cases: Array<[string, string, unknown?]> = [
      ["GET", "/v1/conversations/cnv_9f2a"],
      ["GET", "/v1/conversations/cnv_9f2a/timeline"],
      ["POST", "/v1/conversations/cnv_9f2a/messages", { kind: "text", body_text: "hi" }],
      ["POST", "/v1/conversations/cnv_9f2a/read", { cursor: "seq:0" }],
      ["GET", `/v1/jobs/${jobA.job_id}`],
      [
        "POST",
        `/v1/jobs/${jobA.job_id}/actions`,
        { card_id: jobA.card_id, button_id: btn.button_id, action: btn.action },
      ],
      [
        "POST",
        `/v1/conversations/cnv_9f2a/messages`,
        {
          kind: "card_action",
          job_id: jobA.job_id,
          card_id: jobA.card_id,
          button_id: btn.button_id,
          action: btn.action,
        },
      ],
      ["POST", "/v1/conversations", { participants: [{ entity_id: "ent_human_dan" }] }],
      ["GET", "/v1/artifacts/art_anything"],
      ["PATCH", "/v1/contacts/ctc_anything", { display_name: "x" }],
    ];
    for (const [method, path, body] of cases) {
      const res = await as(bob, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as any).error.code).toBe("NOT_FOUND");
    }
  });

  it("a tenant_id naming another tenant is FORBIDDEN, in query or body", async () => {
    expect((await as(bob, "GET", "/v1/conversations?tenant_id=tnt_acme_001")).status).toBe(403);
    expect((await as(bob, "GET", "/v1/presence?tenant_id=tnt_acme_001")).status).toBe(403);
    expect(
      (await as(bob, "POST", "/v1/conversations", { tenant_id: "tnt_acme_001", participants: [{ entity_id: bobId }] }))
        .status,
    ).toBe(403);
    expect((await as(bob, "GET", "/v1/ledger/query?tenant_id=tnt_acme_001")).status).toBe(403);
    expect((await as(bob, "GET", "/v1/ledger/verify?tenant_id=tnt_acme_001")).status).toBe(403);
  });

  it("an agent's trajectory takes the tenant from the token, as the API table shows it (no query)", async () => {
    const own = await as(dan, "GET", "/v1/agents/ent_agent_scheduler/trajectory");
    expect(own.status).toBe(200);
    expect(((await own.json()) as any).jobs.map((j: any) => j.job_id)).toContain(jobA.job_id);
    const foreign = await as(bob, "GET", "/v1/agents/ent_agent_scheduler/trajectory");
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).error.code).toBe("NOT_FOUND");
    expect((await as(bob, "GET", "/v1/agents/ent_agent_scheduler/trajectory?tenant_id=tnt_acme_001")).status).toBe(403);
  });

  it("lists only the caller's tenant", async () => {
    const convs = ((await (await as(bob, "GET", "/v1/conversations")).json()) as any).items;
    expect(convs).toEqual([]);
    const ents = ((await (await as(bob, "GET", "/v1/entities")).json()) as any).items.map((e: any) => e.entity_id);
    expect(ents).toEqual([bobId]);
    const pres = ((await (await as(bob, "GET", "/v1/presence")).json()) as any).items.map((e: any) => e.entity_id);
    expect(pres).toEqual([bobId]);
  });

  it("cursors are per tenant: A's cursor means nothing to B (404), and B's stream never carries A's frames", async () => {
    const aHead = ((await (await as(dan, "GET", "/v1/conversations")).json()) as any).cursor;
    const r1 = await as(bob, "GET", `/v1/stream?cursor=${aHead}`);
    expect(r1.status).toBe(404);
    const r2 = await as(bob, "GET", "/v1/stream", undefined, { "last-event-id": aHead });
    expect(r2.status).toBe(404);
    const r3 = await as(bob, "GET", `/v1/conversations/cnv_9f2a/timeline?cursor=${aHead}`);
    expect(r3.status).toBe(404);

    const ctl = new AbortController();
    const res = await fetch(`${t.url}/v1/stream?cursor=seq:0`, {
      headers: { authorization: `Bearer ${bob}` },
      signal: ctl.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = "";
    const readFor = async (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const r = await Promise.race([
          reader.read(),
          new Promise<null>((ok) => setTimeout(() => ok(null), until - Date.now())),
        ]);
        if (!r || r.done) break;
        text += new TextDecoder().decode(r.value);
      }
    };
    await as(dan, "POST", "/v1/conversations/cnv_dan_ana/messages", { kind: "text", body_text: "secret of tenant A" });
    await readFor(300);
    ctl.abort();
    expect(text).toContain("event: hello");
    expect(text).not.toContain("tnt_acme_001");
    expect(text).not.toContain("secret of tenant A");
  });

  it("the ledger's append route takes events only from their own actor (admins may act as agents)", async () => {
    const ev = (actor: object, tenant = "tnt_acme_001") => ({
      tenant_id: tenant,
      events: [
        {
          event_id: `evt_${Math.random().toString(16).slice(2)}`,
          event_type: "message.sent",
          ts: new Date().toISOString(),
          tenant_id: tenant,
          trace_id: "trc_1",
          conversation_id: "cnv_dan_ana",
          actor,
          payload: { message_id: "m1", kind: "text", body_text: "raw" },
        },
      ],
    });
    const ana = t.demo.humans[1]!.token;
    expect(
      (await as(ana, "POST", "/v1/ledger/append", ev({ entity_id: "ent_human_dan", actor_type: "human" }))).status,
    ).toBe(403);
    expect(
      (await as(ana, "POST", "/v1/ledger/append", ev({ entity_id: "ent_agent_scheduler", actor_type: "agent" })))
        .status,
    ).toBe(403);
    expect((await as(bob, "POST", "/v1/ledger/append", ev({ entity_id: bobId, actor_type: "human" }))).status).toBe(
      403,
    );
    const own = await as(ana, "POST", "/v1/ledger/append", ev({ entity_id: "ent_human_ana", actor_type: "human" }));
    expect(own.status).toBe(200);
    expect(
      (
        await as(dan, "POST", "/v1/office/ingest_message", {
          tenant_id: "tnt_acme_001",
          trace_id: "t",
          conversation_id: "cnv_dan_ana",
          actor_entity_id: "ent_human_ana",
          body_text: "x",
        })
      ).status,
    ).not.toBe(403);
    expect(
      (
        await as(ana, "POST", "/v1/office/ingest_message", {
          tenant_id: "tnt_acme_001",
          trace_id: "t",
          conversation_id: "cnv_dan_ana",
          actor_entity_id: "ent_human_dan",
          body_text: "x",
        })
      ).status,
    ).toBe(403);
    expect((await req("/v1/ledger/query?tenant_id=tnt_acme_001")).status).toBe(401);
  });
});
