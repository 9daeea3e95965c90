import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { click } from "../support/golden.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * The Admin screens' routes over real HTTP: who may (owners and admins; anyone else refused by
 * the policy pack, 403, and the refusal recorded), bad inputs, the last-owner rule, and the
 * effects: a deactivated person's open stream ends and their token fails; a paused agent
 * answers nothing; a tool allowed from the screen makes a stuck job run.
 */
let t: TestServer;
afterEach(() => t?.close());

const T = "tnt_acme_001";
const DAN = "ent_human_dan";
const ANA = "ent_human_ana";
const AGENT = "ent_agent_scheduler";
const dan = () => demoPerson(t, "Dan").token;
const ana = () => demoPerson(t, "Ana").token;

async function send(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "idempotency-key": `k-${Math.random().toString(36).slice(2)}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** Every event of the tenant, as the ledger holds them. */
async function ledgerEvents() {
  return (await t.server.ledger.query({ tenant_id: T, limit: 1000 })).events;
}

function openRaw(path: string, token: string) {
  let status = 0;
  let ended: number | undefined;
  const req = http.get(
    new URL(`${t.url}${path}`),
    { headers: { authorization: `Bearer ${token}` }, agent: false },
    (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on("end", () => (ended = Date.now()));
      res.on("close", () => (ended ??= Date.now()));
    },
  );
  req.on("error", () => (ended ??= Date.now()));
  return { status: () => status, ended: () => ended, close: () => req.destroy() };
}

describe("members", () => {
  it("lists people with their access for admins only", async () => {
    t = await startTestServer();
    const r = await getJson(`${t.url}/v1/admin/members`, dan());
    expect(r.status).toBe(200);
    expect(r.body.members.map((m: any) => [m.display_name, m.access, m.status])).toEqual([
      ["Dan", "owner", "active"],
      ["Ana", "member", "active"],
    ]);
    const refused = await getJson(`${t.url}/v1/admin/members`, ana());
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
  });

  it("a member's attempt is refused by the policy pack (403) and recorded", async () => {
    t = await startTestServer();
    for (const [method, path, body] of [
      ["PUT", `/v1/admin/members/${ANA}/access`, { access: "admin" }],
      ["POST", `/v1/admin/members/${DAN}/deactivate`, undefined],
      ["POST", `/v1/admin/members/${DAN}/rotate-tokens`, undefined],
      ["POST", `/v1/admin/agents/${AGENT}/pause`, undefined],
      ["PUT", `/v1/admin/agents/${AGENT}`, { role: "Boss" }],
      ["DELETE", `/v1/admin/agents/${AGENT}`, undefined],
    ] as const) {
      const r = await send(method, path, ana(), body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe("UNAUTHORIZED_ACTION");
    }
    const violations = (await ledgerEvents())
      .filter((e) => e.event_type === "policy.violation")
      .map((e: any) => e.payload);
    expect(violations.map((v: any) => v.event_type)).toEqual([
      "entity.role_changed",
      "entity.deactivated",
      "entity.tokens_revoked",
      "agent.paused",
      "entity.registered",
      "entity.deactivated",
    ]);
    expect(violations.every((v: any) => v.code === "UNAUTHORIZED_ACTION")).toBe(true);
    // Nothing changed.
    expect((await getJson(`${t.url}/v1/admin/members`, dan())).body.members.map((m: any) => m.access)).toEqual([
      "owner",
      "member",
    ]);
    expect((await getJson(`${t.url}/v1/session`, dan())).status).toBe(200);
  });

  it("a member is refused (403) before anything about the target shows: its state, its existence, its kind", async () => {
    t = await startTestServer();
    // Each of these is a 409 or a 404 for an admin; a member learns none of it.
    const attempts = [
      ["PUT", `/v1/admin/members/${ANA}/access`, { access: "member" }],
      ["PUT", "/v1/admin/members/ent_nobody/access", { access: "admin" }],
      ["POST", `/v1/admin/members/${DAN}/reactivate`, undefined],
      ["POST", "/v1/admin/members/ent_nobody/deactivate", undefined],
      ["POST", `/v1/admin/members/${AGENT}/deactivate`, undefined],
      ["POST", "/v1/admin/members/ent_nobody/rotate-tokens", undefined],
      ["POST", `/v1/admin/agents/${AGENT}/resume`, undefined],
      ["POST", `/v1/admin/agents/${ANA}/pause`, undefined],
      ["PUT", `/v1/admin/agents/${AGENT}`, { allowed_tools: ["no.such_tool"] }],
      ["PUT", "/v1/admin/agents/ent_nobody", { role: "Boss" }],
      ["DELETE", "/v1/admin/agents/ent_nobody", undefined],
      ["DELETE", "/v1/admin/tokens/tok_00000000000000000000", undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const asAdmin = await send(method, path, dan(), body);
      expect([404, 409, 400], `${method} ${path} as the owner`).toContain(asAdmin.status);
    }
    for (const [method, path, body] of attempts) {
      const r = await send(method, path, ana(), body);
      expect([r.status, r.body.error.code], `${method} ${path}`).toEqual([403, "UNAUTHORIZED_ACTION"]);
    }
  });

  it("refuses bad inputs in the standard error shape", async () => {
    t = await startTestServer();
    const bad = [
      await send("PUT", `/v1/admin/members/${ANA}/access`, dan(), { access: "boss" }),
      await send("PUT", `/v1/admin/members/${ANA}/access`, dan(), { access: "admin", extra: 1 }),
      await send("PUT", `/v1/admin/members/${ANA}/access`, dan(), {}),
      await send("PUT", `/v1/admin/agents/${AGENT}`, dan(), { allowed_tools: ["no.such_tool"] }),
      await send("PUT", `/v1/admin/agents/${AGENT}`, dan(), { allowed_tools: ["mail.send", "mail.send"] }),
      await send("PUT", `/v1/admin/agents/${AGENT}`, dan(), { role: "x".repeat(65) }),
      await send("PUT", `/v1/admin/agents/${AGENT}`, dan(), { display_name: "Call me at +1 555 123 4567" }),
    ];
    for (const r of bad) {
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
    const missing = [
      await send("PUT", "/v1/admin/members/ent_nobody/access", dan(), { access: "admin" }),
      await send("POST", "/v1/admin/members/ent_nobody/deactivate", dan()),
      await send("POST", `/v1/admin/members/${AGENT}/deactivate`, dan()),
      await send("POST", `/v1/admin/agents/${ANA}/pause`, dan()),
      await send("DELETE", "/v1/admin/tokens/tok_00000000000000000000", dan()),
    ];
    for (const r of missing) expect([r.status, r.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const noKey = await fetch(`${t.url}/v1/admin/members/${ANA}/deactivate`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan()}` },
    });
    expect(noKey.status).toBe(400);
    expect((await send("PUT", `/v1/admin/members/${ANA}/access`, dan(), { access: "member" })).status).toBe(409);
    expect((await send("POST", `/v1/admin/members/${ANA}/reactivate`, dan())).status).toBe(409);
  });

  it("keeps the last owner, and an admin cannot demote or deactivate an owner", async () => {
    t = await startTestServer();
    const last = await send("PUT", `/v1/admin/members/${DAN}/access`, dan(), { access: "admin" });
    expect([last.status, last.body.error.code]).toEqual([409, "LAST_OWNER"]);
    const self = await send("POST", `/v1/admin/members/${DAN}/deactivate`, dan());
    expect([self.status, self.body.error.code]).toEqual([409, "LAST_OWNER"]);

    expect((await send("PUT", `/v1/admin/members/${ANA}/access`, dan(), { access: "admin" })).status).toBe(200);
    const demote = await send("PUT", `/v1/admin/members/${DAN}/access`, ana(), { access: "member" });
    expect([demote.status, demote.body.error.code]).toEqual([403, "UNAUTHORIZED_ACTION"]);
    const off = await send("POST", `/v1/admin/members/${DAN}/deactivate`, ana());
    expect([off.status, off.body.error.code]).toEqual([403, "UNAUTHORIZED_ACTION"]);
    const crown = await send("PUT", `/v1/admin/members/${ANA}/access`, ana(), { access: "owner" });
    expect(crown.status).toBe(403);

    // With a second owner, the first may step down.
    expect((await send("PUT", `/v1/admin/members/${ANA}/access`, dan(), { access: "owner" })).status).toBe(200);
    expect((await send("PUT", `/v1/admin/members/${DAN}/access`, dan(), { access: "admin" })).status).toBe(200);
    const members = (await getJson(`${t.url}/v1/admin/members`, ana())).body.members;
    expect(members.map((m: any) => [m.display_name, m.access])).toEqual([
      ["Ana", "owner"],
      ["Dan", "admin"],
    ]);
    const changes = (await ledgerEvents())
      .filter((e) => e.event_type === "entity.role_changed")
      .map((e: any) => [e.actor.entity_id, e.payload.entity_id, e.payload.roles]);
    expect(changes).toEqual([
      [DAN, ANA, ["admin", "job_approver"]],
      [DAN, ANA, ["owner", "admin", "job_approver"]],
      [DAN, DAN, ["admin", "job_approver"]],
    ]);
  });

  it("deactivation ends the person's open stream and every request with their token; reactivation signs them in again", async () => {
    t = await startTestServer();
    const token = ana();
    const stream = openRaw("/v1/stream", token);
    await waitFor(() => stream.status() === 200, 3000, "stream open");
    const r = await send("POST", `/v1/admin/members/${ANA}/deactivate`, dan());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ entity_id: ANA, status: "deactivated", revoked: 1 });
    const at = Date.now();
    await waitFor(() => stream.ended() !== undefined, 1000, "stream ended");
    expect(stream.ended()! - at).toBeLessThanOrEqual(1000);
    for (const path of ["/v1/session", "/v1/conversations", "/v1/stream"])
      expect((await getJson(`${t.url}${path}`, token)).status).toBe(401);
    expect(
      (await ledgerEvents())
        .filter((e) => e.event_type === "entity.deactivated")
        .map((e: any) => [e.actor.entity_id, e.payload]),
    ).toEqual([[DAN, { entity_id: ANA, reason: "deactivated" }]]);
    const listed = (await getJson(`${t.url}/v1/admin/members`, dan())).body.members.find(
      (m: any) => m.entity_id === ANA,
    );
    expect(listed.status).toBe("deactivated");
    const presence = (await getJson(`${t.url}/v1/presence`, dan())).body;
    expect(JSON.stringify(presence)).toContain("Deactivated");

    const back = await send("POST", `/v1/admin/members/${ANA}/reactivate`, dan());
    expect(back.status).toBe(200);
    const fresh = new URL(back.body.signin_url, t.url).searchParams.get("token")!;
    const me = await getJson(`${t.url}/v1/session`, fresh);
    expect([me.status, me.body.entity_id]).toEqual([200, ANA]);
    expect((await getJson(`${t.url}/v1/session`, token)).status).toBe(401);
  });
});

describe("tokens", () => {
  it("lists whose, created and last used — never a secret; revoke ends one, rotate ends all and gives a new link", async () => {
    t = await startTestServer();
    const second = t.server.gateway.tokens.issue({ tenantId: T, entityId: ANA });
    await getJson(`${t.url}/v1/session`, ana());
    const list = await getJson(`${t.url}/v1/admin/tokens`, dan());
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    for (const secret of [dan(), ana(), second]) expect(text).not.toContain(secret);
    const anas = list.body.tokens.filter((x: any) => x.entity_id === ANA);
    expect(anas).toHaveLength(2);
    expect(
      anas.every(
        (x: any) =>
          /^tok_[0-9a-f]{20}$/.test(x.token_id) && x.display_name === "Ana" && !Number.isNaN(Date.parse(x.created_at)),
      ),
    ).toBe(true);
    expect(anas.filter((x: any) => x.last_used_at !== null)).toHaveLength(1);
    expect((await getJson(`${t.url}/v1/admin/tokens`, ana())).status).toBe(403);

    // Revoke the one Ana has been using.
    const used = anas.find((x: any) => x.last_used_at !== null);
    const stream = openRaw("/v1/stream", ana());
    await waitFor(() => stream.status() === 200, 3000, "stream open");
    const r = await send("DELETE", `/v1/admin/tokens/${used.token_id}`, dan());
    expect(r.status).toBe(200);
    await waitFor(() => stream.ended() !== undefined, 1000, "stream ended");
    expect((await getJson(`${t.url}/v1/session`, ana())).status).toBe(401);
    expect((await getJson(`${t.url}/v1/session`, second)).status).toBe(200);
    expect((await send("DELETE", `/v1/admin/tokens/${used.token_id}`, dan())).status).toBe(404);

    const rot = await send("POST", `/v1/admin/members/${ANA}/rotate-tokens`, dan());
    expect(rot.status).toBe(200);
    expect(rot.body.revoked).toBe(1);
    expect((await getJson(`${t.url}/v1/session`, second)).status).toBe(401);
    const fresh = new URL(rot.body.signin_url, t.url).searchParams.get("token")!;
    expect((await getJson(`${t.url}/v1/session`, fresh)).body.entity_id).toBe(ANA);
    const recorded = (await ledgerEvents())
      .filter((e) => e.event_type === "entity.tokens_revoked")
      .map((e: any) => e.payload);
    expect(recorded).toEqual([
      { entity_id: ANA, token_id: used.token_id, rotated: false },
      { entity_id: ANA, rotated: true },
    ]);
  });
});

describe("agents", () => {
  const ask = (token: string) =>
    postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, token, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
  const timeline = async () =>
    (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline?limit=1000`, dan())).body.items as any[];

  it("a paused agent answers nothing and says Paused; resumed, it works again; removed, it is gone", async () => {
    t = await startTestServer();
    expect((await send("POST", `/v1/admin/agents/${AGENT}/pause`, dan())).status).toBe(200);
    expect((await send("POST", `/v1/admin/agents/${AGENT}/pause`, dan())).status).toBe(409);
    const agents = (await getJson(`${t.url}/v1/admin/agents`, dan())).body.agents;
    expect(agents.map((a: any) => [a.display_name, a.status])).toEqual([["Office Scheduler", "paused"]]);
    const presence = (await getJson(`${t.url}/v1/presence`, dan())).body;
    expect(JSON.stringify(presence)).toContain('"detail":"Paused"');

    expect((await ask(dan())).status).toBe(202);
    await t.server.office.idle();
    expect((await timeline()).filter((i) => i.sender.entity_id === AGENT)).toHaveLength(0);

    expect((await send("POST", `/v1/admin/agents/${AGENT}/resume`, dan())).status).toBe(200);
    expect((await ask(dan())).status).toBe(202);
    await waitFor(
      async () => (await timeline()).some((i) => i.message.card?.card_type === "job.formalize"),
      5000,
      "a proposal",
    );

    expect((await send("DELETE", `/v1/admin/agents/${AGENT}`, dan())).status).toBe(200);
    expect((await getJson(`${t.url}/v1/admin/agents`, dan())).body.agents).toEqual([]);
    expect((await send("POST", `/v1/admin/agents/${AGENT}/resume`, dan())).status).toBe(404);
  });

  it("a job stuck on tool_not_allowed runs once the tool is allowed from the screen", async () => {
    t = await startTestServer();
    expect((await ask(dan())).status).toBe(202);
    const formalize = await waitFor(
      async () => (await timeline()).map((i) => i.message.card).find((c) => c?.card_type === "job.formalize"),
      5000,
      "proposal",
    );
    // The tool taken away from the screen before the approval: the job stops on tool_not_allowed.
    const off = await send("PUT", `/v1/admin/agents/${AGENT}`, dan(), { allowed_tools: [] });
    expect(off.status).toBe(200);
    expect((await getJson(`${t.url}/v1/admin/agents`, dan())).body.agents[0].allowed_tools).toEqual([]);
    expect((await click(t.url, dan(), formalize, "job.approve")).status).toBe(202);
    const stateIs = (reason: string) => async () =>
      (await ledgerEvents()).some(
        (e) =>
          e.event_type === "job.state_changed" &&
          e.job_id === formalize.job_id &&
          (e.payload as any).reason_code === reason,
      );
    const tracking = async () =>
      (await timeline())
        .map((i) => i.message.card)
        .filter((c) => c?.job_id === formalize.job_id && c.card_type === "job.tracking")
        .at(-1);
    // It asks for Maria's address and a time first; with those, it stops on the tool.
    await waitFor(stateIs("missing_required_inputs"), 5000, "asked for details");
    expect((await click(t.url, dan(), await tracking(), "job.provide_input")).status).toBe(202);
    await waitFor(stateIs("tool_not_allowed"), 5000, "stuck on tool_not_allowed");
    await t.server.office.idle();
    const stuck = await tracking();
    expect(stuck.progress.blockers).toEqual(["Tool not allowed: calendar.create_invite"]);

    const on = await send("PUT", `/v1/admin/agents/${AGENT}`, dan(), {
      allowed_tools: ["calendar.create_invite", "mail.send"],
      role: "Scheduler",
      capabilities: ["Scheduling"],
    });
    expect(on.status).toBe(200);
    const listed = (await getJson(`${t.url}/v1/admin/agents`, dan())).body.agents[0];
    expect(listed).toMatchObject({
      role: "Scheduler",
      capabilities: ["Scheduling"],
      allowed_tools: ["calendar.create_invite", "mail.send"],
    });
    expect((await click(t.url, dan(), stuck, "job.provide_input")).status).toBe(202);
    await waitFor(
      async () =>
        (await ledgerEvents()).some(
          (e) =>
            e.event_type === "tool.called" &&
            e.job_id === formalize.job_id &&
            (e.payload as any).tool_name === "calendar.create_invite",
        ),
      8000,
      "the tool called",
    );
    const regs = (await ledgerEvents())
      .filter((e) => e.event_type === "entity.registered" && (e.payload as any).entity_id === AGENT)
      .map((e: any) => e.actor.entity_id);
    expect(regs.slice(-2)).toEqual([DAN, DAN]);
  });
});

describe("token last used", () => {
  it("is the session's stored last_seen_at, so it is still known after a restart", async () => {
    t = await startTestServer({ keep: true });
    const unused = t.server.gateway.tokens.issue({ tenantId: T, entityId: ANA });
    const before = t.clock.now();
    await new Promise((r) => setTimeout(r, 5));
    expect((await getJson(`${t.url}/v1/session`, ana())).status).toBe(200);
    const anaToken = ana();
    const first = (await getJson(`${t.url}/v1/admin/tokens`, dan())).body.tokens.filter(
      (x: any) => x.entity_id === ANA,
    );
    const used = first.find((x: any) => x.last_used_at !== null);
    expect(first).toHaveLength(2);
    expect(Date.parse(used.last_used_at)).toBeGreaterThan(before);
    expect(first.find((x: any) => x.token_id !== used.token_id).last_used_at).toBeNull();
    const dataDir = t.dataDir;
    await t.close();

    t = await startTestServer({ dataDir });
    const after = (await getJson(`${t.url}/v1/admin/tokens`, dan())).body.tokens.filter(
      (x: any) => x.entity_id === ANA,
    );
    expect(after.find((x: any) => x.token_id === used.token_id).last_used_at).toBe(used.last_used_at);
    expect(after.find((x: any) => x.token_id !== used.token_id).last_used_at).toBeNull();
    // Still a working token, and the unused one was never stamped by the restart itself.
    expect((await getJson(`${t.url}/v1/session`, anaToken)).status).toBe(200);
    expect((await getJson(`${t.url}/v1/session`, unused)).status).toBe(200);
  });
});
