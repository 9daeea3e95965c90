import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * Who reads what and for how long, over real HTTP: a member reads only the conversations they
 * are in (ledger query, ledger stream, agent trajectory), the whole log is for admins and
 * auditors, revoked access ends open streams within a second, and every write route is
 * rate limited. Demo: Dan (admin, approver) in cnv_9f2a with the agent and in cnv_dan_ana; Ana
 * (member) only in cnv_dan_ana.
 */
let t: TestServer;
afterEach(() => t?.close());

const T = "tnt_acme_001";
const dan = () => demoPerson(t, "Dan").token;
const ana = () => demoPerson(t, "Ana").token;

/** A raw SSE connection: the frames' text as it arrives, and when it ended. */
function openRaw(path: string, token: string, headers: Record<string, string> = {}) {
  const url = new URL(`${t.url}${path}`);
  let text = "";
  let status = 0;
  let ended: number | undefined;
  const req = http.get(url, { headers: { authorization: `Bearer ${token}`, ...headers }, agent: false }, (res) => {
    status = res.statusCode ?? 0;
    res.setEncoding("utf8");
    res.on("data", (d: string) => (text += d));
    res.on("end", () => (ended = Date.now()));
    res.on("close", () => (ended ??= Date.now()));
  });
  req.on("error", () => (ended ??= Date.now()));
  return {
    text: () => text,
    status: () => status,
    ended: () => ended,
    close: () => req.destroy(),
  };
}

async function seedJobInDansChat() {
  const r = await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan(), {
    kind: "text",
    body_text: "Can you schedule a 30-min call with Maria next week?",
  });
  expect(r.status).toBe(202);
  await waitFor(
    async () =>
      (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline`, dan())).body.items.some((i: any) => i.message.card),
    5000,
    "card",
  );
}

describe("reading: a person reads their conversations; the whole log is for admins", () => {
  it("ledger query, stream and trajectory show Ana nothing of Dan's chat with the agent", async () => {
    t = await startTestServer();
    const stream = openRaw(`/v1/ledger/stream?tenant_id=${T}`, ana());
    await seedJobInDansChat();
    await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan(), {
      kind: "text",
      body_text: "Lunch at one?",
    });

    const mine = (await getJson(`${t.url}/v1/ledger/query?tenant_id=${T}&limit=1000`, ana())).body;
    const all = (await getJson(`${t.url}/v1/ledger/query?tenant_id=${T}&limit=1000`, dan())).body;
    expect(all.events.some((e: any) => e.conversation_id === "cnv_9f2a")).toBe(true);
    expect(mine.events.some((e: any) => e.conversation_id === "cnv_9f2a")).toBe(false);
    expect(mine.events.some((e: any) => e.job_id)).toBe(false);
    // What every member needs is there: who the people and agents are, and her own chat.
    expect(mine.events.filter((e: any) => e.event_type === "entity.registered").length).toBeGreaterThanOrEqual(3);
    expect(
      mine.events.some((e: any) => e.conversation_id === "cnv_dan_ana" && e.payload.body_text === "Lunch at one?"),
    ).toBe(true);
    // The page still says where the log stands, so paging goes on past what she cannot read.
    expect(mine.next_cursor ?? mine.cursor).toEqual(all.next_cursor ?? all.cursor);

    await waitFor(() => stream.text().includes("Lunch at one?"), 3000, "Ana's own message on her stream");
    expect(stream.text()).not.toContain("cnv_9f2a");
    stream.close();

    const agent = t.demo.agents[0]!.entity_id;
    expect((await getJson(`${t.url}/v1/agents/${agent}/trajectory`, dan())).body.jobs).toHaveLength(1);
    expect((await getJson(`${t.url}/v1/agents/${agent}/trajectory`, ana())).body.jobs).toEqual([]);

    expect((await getJson(`${t.url}/v1/ledger/verify?tenant_id=${T}`, ana())).status).toBe(403);
    expect((await getJson(`${t.url}/v1/ledger/verify?tenant_id=${T}`, dan())).body.ok).toBe(true);
  });

  it("Office acts only in a conversation the caller is in", async () => {
    t = await startTestServer();
    const r = await postJson(`${t.url}/v1/office/ingest_message`, ana(), {
      tenant_id: T,
      trace_id: "trc_x",
      conversation_id: "cnv_9f2a",
      actor_entity_id: "ent_human_ana",
      body_text: "hello",
    });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("NOT_FOUND");
  });
});

describe("revocation ends what depended on it", () => {
  it("sign-out ends all three of the token's streams within a second; the old token cannot resume", async () => {
    t = await startTestServer();
    const token = ana();
    const streams = [
      openRaw("/v1/stream", token),
      openRaw("/v1/stream", token),
      openRaw(`/v1/ledger/stream?tenant_id=${T}`, token),
    ];
    await waitFor(() => streams.every((s) => s.status() === 200), 3000, "three open streams");
    const out = await fetch(`${t.url}/v1/session`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    const at = Date.now();
    await waitFor(() => streams.every((s) => s.ended() !== undefined), 1000, "all streams ended");
    for (const s of streams) expect(s.ended()! - at).toBeLessThanOrEqual(1000);
    const again = await fetch(`${t.url}/v1/stream`, {
      headers: { authorization: `Bearer ${token}`, "last-event-id": "seq:1" },
    });
    expect(again.status).toBe(401);
  });

  it("a token revoked by another process (the admin CLI) ends its streams within a second", async () => {
    t = await startTestServer();
    const s = openRaw("/v1/stream", ana());
    await waitFor(() => s.status() === 200, 3000, "open");
    t.server.db
      .prepare("UPDATE gateway_tokens SET revoked_at = ? WHERE entity_id = 'ent_human_ana'")
      .run(new Date().toISOString());
    await waitFor(() => s.ended() !== undefined, 1500, "stream ended");
  });

  it("a change of roles ends the person's streams; they reconnect under the new roles", async () => {
    t = await startTestServer();
    const s = openRaw(`/v1/ledger/stream?tenant_id=${T}`, ana());
    await waitFor(() => s.status() === 200, 3000, "open");
    const ev = {
      event_id: "evt_role_change_1",
      event_type: "entity.registered",
      ts: new Date().toISOString(),
      tenant_id: T,
      trace_id: "trc_role",
      conversation_id: "cnv_workspace",
      actor: { entity_id: "system_gateway", actor_type: "system" },
      payload: { entity_id: "ent_human_ana", actor_type: "human", display_name: "Ana", roles: ["member", "auditor"] },
    };
    const r = await postJson(`${t.url}/v1/ledger/append`, dan(), { tenant_id: T, events: [ev] });
    expect(r.status).toBe(200);
    await waitFor(() => s.ended() !== undefined, 1000, "stream ended");
    // As an auditor Ana now reads the whole log.
    await seedJobInDansChat();
    const page = (await getJson(`${t.url}/v1/ledger/query?tenant_id=${T}&limit=1000`, ana())).body;
    expect(page.events.some((e: any) => e.conversation_id === "cnv_9f2a")).toBe(true);
  });
});

describe("limits", () => {
  it("streams per token are capped (429 with Retry-After beyond)", async () => {
    t = await startTestServer({ streamLimits: { perToken: 2, perTenant: 100 } });
    const a = openRaw("/v1/stream", ana());
    const b = openRaw(`/v1/ledger/stream?tenant_id=${T}`, ana());
    await waitFor(() => a.status() === 200 && b.status() === 200, 3000, "two open");
    for (const path of ["/v1/stream", `/v1/ledger/stream?tenant_id=${T}`]) {
      const third = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${ana()}` } });
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBeTruthy();
      expect((await third.json()).error.code).toBe("RATE_LIMITED");
    }
    // Dan's token has its own allowance.
    const d = openRaw("/v1/stream", dan());
    await waitFor(() => d.status() === 200, 3000, "Dan's stream");
    a.close();
    await waitFor(
      async () => (await fetch(`${t.url}/v1/presence`, { headers: { authorization: `Bearer ${ana()}` } })).ok,
      1000,
      "still signed in",
    );
    const again = openRaw("/v1/stream", ana());
    await waitFor(() => again.status() === 200, 3000, "a slot freed by closing one");
    for (const s of [b, d, again]) s.close();
  });

  it("streams per workspace are capped across its tokens, and a closed one frees its slot", async () => {
    t = await startTestServer({ streamLimits: { perToken: 10, perTenant: 2 } });
    const a = openRaw("/v1/stream", ana());
    const b = openRaw("/v1/stream", ana());
    await waitFor(() => a.status() === 200 && b.status() === 200, 3000, "two open");
    const third = await fetch(`${t.url}/v1/stream`, { headers: { authorization: `Bearer ${dan()}` } });
    expect(third.status).toBe(429);
    expect((await third.json()).error.details.limit).toBe("streams_per_tenant");
    b.close();
    await waitFor(
      async () => {
        const d = await fetch(`${t.url}/v1/stream`, { headers: { authorization: `Bearer ${dan()}` } });
        const ok = d.status === 200;
        await d.body?.cancel();
        return ok;
      },
      3000,
      "a slot freed by closing one",
    );
    a.close();
  });

  it("every write route is rate limited: ledger append (per event), Office ingest, Messenger posts", async () => {
    t = await startTestServer({ rateLimit: { capacity: 5, refillPerSecond: 0.01 } });
    const msg = (i: number) => ({
      event_id: `evt_rl_${i}`,
      event_type: "message.sent",
      ts: new Date().toISOString(),
      tenant_id: T,
      trace_id: "trc_rl",
      conversation_id: "cnv_dan_ana",
      actor: { entity_id: "ent_human_ana", actor_type: "human" },
      payload: { message_id: `msg_rl_${i}`, kind: "text", body_text: `hi ${i}` },
    });
    const first = await postJson(`${t.url}/v1/ledger/append`, ana(), {
      tenant_id: T,
      events: [0, 1, 2, 3, 4].map(msg),
    });
    expect(first.status).toBe(200);
    const over = await postJson(`${t.url}/v1/ledger/append`, ana(), { tenant_id: T, events: [msg(5)] });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    const ingest = await postJson(`${t.url}/v1/office/ingest_message`, ana(), {
      tenant_id: T,
      trace_id: "trc_x",
      conversation_id: "cnv_dan_ana",
      actor_entity_id: "ent_human_ana",
      body_text: "hello",
    });
    expect(ingest.status).toBe(429);
    expect(
      (await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, ana(), { kind: "text", body_text: "x" }))
        .status,
    ).toBe(429);
    // Another person in the same workspace is not held by Ana's bucket.
    expect(
      (await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan(), { kind: "text", body_text: "y" }))
        .status,
    ).toBe(202);
  });
});

describe("workspace acts through the generic append route", () => {
  it("a member cannot delete a contact; nobody deletes one there without erasing its addresses", async () => {
    t = await startTestServer();
    const created = await postJson(`${t.url}/v1/contacts`, dan(), {
      display_name: "Maria Lopes",
      email: "maria@acme.com",
    });
    expect(created.status).toBe(201);
    const id = created.body.contact_id;
    const del = (actor: { entity_id: string; actor_type: string }, n: number) => ({
      event_id: `evt_del_${n}`,
      event_type: "contact.upserted",
      ts: new Date().toISOString(),
      tenant_id: T,
      trace_id: "trc_del",
      conversation_id: "cnv_workspace",
      actor,
      payload: { contact_id: id, display_name: "Maria Lopes", kind: "other", emails: [], phones: [], deleted: true },
    });
    for (const [token, actor] of [
      [ana(), { entity_id: "ent_human_ana", actor_type: "human" }],
      [dan(), { entity_id: "ent_human_dan", actor_type: "human" }],
    ] as const) {
      const r = await postJson(`${t.url}/v1/ledger/append`, token, {
        tenant_id: T,
        events: [del(actor, token === dan() ? 2 : 1)],
      });
      expect(r.status).toBe(403);
    }
    const list = (await getJson(`${t.url}/v1/contacts`, ana())).body;
    expect(JSON.stringify(list)).toContain(id);
    // The door that erases: admins only.
    expect(
      (
        await fetch(`${t.url}/v1/contacts/${id}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${ana()}`, "idempotency-key": "k-del-ana-1" },
        })
      ).status,
    ).toBe(403);
    const ok = await fetch(`${t.url}/v1/contacts/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan()}`, "idempotency-key": "k-del-dan-1" },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).erased).toBe(1);
  });
});
