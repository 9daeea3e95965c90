import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
const req = async (path: string, init: RequestInit = {}): Promise<Response> => t.server.app.request(path, init);
const json = (
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  key = `key-${Math.random().toString(36).slice(2)}-${Date.now()}`,
) =>
  req(path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      "content-type": "application/json",
      ...(method !== "GET" ? { "idempotency-key": key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe("onboarding: workspace → invite → agent", () => {
  it("creates a workspace, invites a coworker who joins once, and adds an agent", async () => {
    const ws = await json(null, "POST", "/v1/workspaces", { name: "Corner Shop", owner: { display_name: "Olga" } });
    expect(ws.status).toBe(201);
    const w = (await ws.json()) as { tenant_id: string; owner_entity_id: string; token: string };
    expect(w.token).toMatch(/^llt_/);
    // tokens are stored hashed: the raw token is nowhere in the database
    const dbBytes =
      readFileSync(join(t.dataDir, "logline.sqlite")).toString("latin1") +
      readFileSync(join(t.dataDir, "logline.sqlite-wal")).toString("latin1");
    expect(dbBytes).not.toContain(w.token);

    const inv = await json(w.token, "POST", "/v1/invites", { display_name: "Pia", roles: ["member"] });
    expect(inv.status).toBe(201);
    const { invite_token, url } = (await inv.json()) as { invite_token: string; url: string };
    expect(url).toContain(`/invite/${invite_token}`);
    expect(((await (await json(null, "GET", `/v1/invites/${invite_token}`)).json()) as any).display_name).toBe("Pia");

    const acc = await json(null, "POST", `/v1/invites/${invite_token}/accept`, { display_name: "Pia" });
    expect(acc.status).toBe(201);
    const pia = (await acc.json()) as { entity_id: string; token: string; tenant_id: string };
    expect(pia.tenant_id).toBe(w.tenant_id);
    const again = await json(null, "POST", `/v1/invites/${invite_token}/accept`, { display_name: "Mallory" });
    expect(again.status).toBe(404);

    // only admins invite or add agents
    const notAdmin = await json(pia.token, "POST", "/v1/agents", {
      display_name: "Billing",
      role: "Billing Agent",
      capabilities: [],
      allowed_tools: [],
    });
    expect(notAdmin.status).toBe(403);
    const ag = await json(w.token, "POST", "/v1/agents", {
      display_name: "Billing",
      role: "Billing Agent",
      capabilities: ["Invoices"],
      allowed_tools: [],
    });
    expect(ag.status).toBe(201);
    const agent = (await ag.json()) as { entity_id: string };

    const ents = ((await (await json(pia.token, "GET", "/v1/entities")).json()) as any).items;
    expect(ents.map((e: any) => e.display_name).sort()).toEqual(["Billing", "Olga", "Pia"]);
    expect(ents.find((e: any) => e.entity_id === agent.entity_id)).toMatchObject({
      actor_type: "agent",
      role: "Billing Agent",
      capabilities: ["Invoices"],
    });

    const conv = await json(w.token, "POST", "/v1/conversations", { participants: [{ entity_id: pia.entity_id }] });
    expect(conv.status).toBe(202);
    const { conversation_id } = (await conv.json()) as { conversation_id: string };
    const listPia = ((await (await json(pia.token, "GET", "/v1/conversations")).json()) as any).items;
    expect(listPia.map((c: any) => [c.conversation_id, c.title])).toEqual([[conversation_id, "Olga"]]);
  });

  it("bad onboarding input gets the standard error shape", async () => {
    const cases: Array<[Promise<Response>, number, string]> = [
      [json(null, "POST", "/v1/workspaces", { name: "", owner: { display_name: "x" } }), 400, "VALIDATION_ERROR"],
      [
        json(null, "POST", "/v1/workspaces", { name: "a", owner: { display_name: "x" }, tenant_id: "t" }),
        400,
        "VALIDATION_ERROR",
      ],
      [
        json(null, "POST", "/v1/workspaces", { name: "a", owner: { display_name: "x" } }, "short"),
        400,
        "VALIDATION_ERROR",
      ],
      [json(null, "POST", "/v1/invites/inv_nope/accept", { display_name: "x" }), 404, "NOT_FOUND"],
      [json(null, "POST", "/v1/invites", { display_name: "x" }), 401, "UNAUTHORIZED"],
      [json(t.demo.humans[0]!.token, "POST", "/v1/invites", { roles: ["owner"] }), 400, "VALIDATION_ERROR"],
      [json(t.demo.humans[0]!.token, "POST", "/v1/agents", { display_name: "x" }), 400, "VALIDATION_ERROR"],
    ];
    for (const [p, status, code] of cases) {
      const res = await p;
      expect(res.status).toBe(status);
      expect(((await res.json()) as any).error.code).toBe(code);
    }
  });
});

describe("contacts", () => {
  it("keeps emails and phones in the vault; members read them back; CSV import", async () => {
    const dan = t.demo.humans[0]!.token;
    const c = await json(dan, "POST", "/v1/contacts", {
      display_name: "Maria",
      email: "maria@acme.com",
      phone: "+351 912 345 678",
      company: "Acme",
      kind: "customer",
    });
    expect(c.status).toBe(201);
    const { contact_id } = (await c.json()) as { contact_id: string };
    const events = JSON.stringify(
      t.server.ledger.query({ tenant_id: "tnt_acme_001", event_type: "contact.upserted", limit: 100 }).events,
    );
    expect(events).not.toContain("maria@acme.com");
    expect(events).toContain("m***@acme.com");

    const patched = await json(dan, "PATCH", `/v1/contacts/${contact_id}`, { notes: "prefers mornings" });
    expect(patched.status).toBe(200);
    const imp = await json(dan, "POST", "/v1/contacts/import", {
      csv: 'name,email,company\n"Vendor, Inc",orders@vendor.example,Vendor\nBruno,,\n',
    });
    expect(imp.status).toBe(201);
    const list = ((await (await json(dan, "GET", "/v1/contacts")).json()) as any).items;
    const maria = list.find((x: any) => x.contact_id === contact_id);
    expect(maria).toMatchObject({ display_name: "Maria", organization: "Acme", notes: "prefers mornings" });
    expect(maria.emails[0].value).toBe("maria@acme.com");
    expect(list.map((x: any) => x.display_name)).toEqual(expect.arrayContaining(["Vendor, Inc", "Bruno"]));

    const bad = await json(dan, "POST", "/v1/contacts", { display_name: "X", email: "nope" });
    expect(bad.status).toBe(400);
    const badCsv = await json(dan, "POST", "/v1/contacts/import", { csv: "email\nx@y.com\n" });
    expect(badCsv.status).toBe(400);
  });
});

describe("attachments", () => {
  it("stores the file under DATA_DIR and serves it tenant-checked as a download", async () => {
    const dan = t.demo.humans[0]!.token;
    const form = new FormData();
    form.append("file", new Blob(["<script>alert(1)</script>"], { type: "text/html" }), "../../evil.html");
    const up = await req("/v1/conversations/cnv_dan_ana/attachments", {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "upload-1" },
      body: form,
    });
    expect(up.status).toBe(202);
    const { artifact_id } = (await up.json()) as { artifact_id: string };
    expect(statSync(join(t.dataDir, "attachments", "tnt_acme_001", artifact_id)).size).toBe(25);

    const dl = await req(`/v1/artifacts/${artifact_id}`, {
      headers: { authorization: `Bearer ${t.demo.humans[1]!.token}` },
    });
    expect(dl.status).toBe(200);
    expect(dl.headers.get("content-disposition")).toBe('attachment; filename="evil.html"');
    expect(dl.headers.get("x-content-type-options")).toBe("nosniff");
    expect(dl.headers.get("content-type")).toBe("application/octet-stream");
    expect(await dl.text()).toBe("<script>alert(1)</script>");

    const tl = (
      (await (
        await req("/v1/conversations/cnv_dan_ana/timeline", { headers: { authorization: `Bearer ${dan}` } })
      ).json()) as any
    ).items;
    expect(tl.at(-1).message).toMatchObject({
      kind: "artifact",
      artifact: { artifact_id, kind: "file", title: "evil.html" },
    });

    // a workspace of its own cannot fetch it
    const ws = (await (
      await json(null, "POST", "/v1/workspaces", { name: "Other", owner: { display_name: "Eve" } })
    ).json()) as { token: string };
    expect(
      (await req(`/v1/artifacts/${artifact_id}`, { headers: { authorization: `Bearer ${ws.token}` } })).status,
    ).toBe(404);
    const noFile = await req("/v1/conversations/cnv_dan_ana/attachments", {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "upload-2" },
      body: new FormData(),
    });
    expect(noFile.status).toBe(400);
  });

  it("a file or group name with an email or phone in it is accepted, and the ledger gets only the redacted form", async () => {
    const dan = t.demo.humans[0]!.token;
    const form = new FormData();
    form.append(
      "file",
      new Blob(["notes"], { type: "text/plain" }),
      "call maria.lopez@contoso.com +351 912 345 678.txt",
    );
    const up = await req("/v1/conversations/cnv_dan_ana/attachments", {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "upload-pii" },
      body: form,
    });
    expect(up.status).toBe(202);
    const { artifact_id } = (await up.json()) as { artifact_id: string };
    const dl = await req(`/v1/artifacts/${artifact_id}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(dl.headers.get("content-disposition")).toBe(
      'attachment; filename="call maria.lopez@contoso.com +351 912 345 678.txt"',
    );
    const tl = (
      (await (
        await req("/v1/conversations/cnv_dan_ana/timeline", { headers: { authorization: `Bearer ${dan}` } })
      ).json()) as any
    ).items;
    expect(tl.at(-1).message.artifact.title).toContain("m***@contoso.com");

    const group = await json(dan, "POST", "/v1/conversations", {
      participants: [{ entity_id: "ent_human_ana" }],
      title: "Deal with bob@contoso.com, call +1 415 555 0100",
    });
    expect(group.status).toBe(202);
    const { conversation_id } = (await group.json()) as { conversation_id: string };
    const conv = ((await (await json(dan, "GET", `/v1/conversations/${conversation_id}`)).json()) as any).conversation;
    expect(conv.title).toMatch(/^Deal with b\*\*\*@contoso\.com, call /);

    const stored = JSON.stringify(t.server.ledger.query({ tenant_id: "tnt_acme_001", limit: 1000 }).events);
    for (const raw of ["maria.lopez@contoso.com", "912 345 678", "bob@contoso.com", "415 555 0100"])
      expect(stored).not.toContain(raw);
  });
});
