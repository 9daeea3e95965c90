import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasContactDetails } from "../../contracts/contact-details.js";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let seq = 0;
const send = (token: string | null, method: string, path: string, body?: unknown) =>
  t.server.app.request(path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      "content-type": "application/json",
      ...(method !== "GET" ? { "idempotency-key": `names-${Date.now()}-${seq++}-padding` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Every stored ledger event of the demo tenant, as text. */
function ledgerText(): string {
  const events: unknown[] = [];
  t.server.ledger.replay((e) => events.push(e), { tenantId: t.demo.tenant_id });
  return JSON.stringify(events);
}

describe("names never carry an email or phone into the ledger", () => {
  it("tells contact details from ordinary names", () => {
    for (const s of ["Agent 415-555-0188", "Bob bob@acme.com", "+351 912 345 678", "Call (212) 555-0123"])
      expect(hasContactDetails(s), s).toBe(true);
    for (const s of ["Agent 007", "Office Scheduler", "Q4 2026 Planning", "Room 12-B", "Ana"])
      expect(hasContactDetails(s), s).toBe(false);
  });

  it("refuses them in workspace, owner, invite, agent and contact names with the standard error shape, writing nothing", async () => {
    const dan = t.demo.humans[0]!.token;
    const before = ledgerText();
    const cases: Array<[string | null, string, unknown, string]> = [
      [null, "/v1/workspaces", { name: "Shop +1 415 555 0100", owner: { display_name: "Olga" } }, "name"],
      [null, "/v1/workspaces", { name: "Shop", owner: { display_name: "olga@shop.example" } }, "owner.display_name"],
      [dan, "/v1/invites", { display_name: "Pia 912 345 678" }, "display_name"],
      [
        dan,
        "/v1/agents",
        { display_name: "Agent 415-555-0188", role: "Billing", capabilities: [], allowed_tools: [] },
        "display_name",
      ],
      [
        dan,
        "/v1/agents",
        { display_name: "Billing", role: "Billing", capabilities: ["mail bill@acme.com"], allowed_tools: [] },
        "capabilities.0",
      ],
      [dan, "/v1/contacts", { display_name: "Maria maria@acme.com" }, "display_name"],
      [dan, "/v1/contacts", { display_name: "Maria", notes: "call her on +351 912 345 678" }, "notes"],
    ];
    for (const [token, path, body, field] of cases) {
      const res = await send(token, "POST", path, body);
      expect(res.status, path).toBe(400);
      const err = (await res.json()) as { error: { code: string; message: string; details?: { field?: string } } };
      expect(err.error.code).toBe("VALIDATION_ERROR");
      expect(err.error.message).toContain("must not contain an email address or phone number");
      expect(err.error.details?.field).toBe(field);
    }
    expect(ledgerText()).toBe(before);
  });

  it("refuses a CSV import whose name column carries contact details, naming the row", async () => {
    const dan = t.demo.humans[0]!.token;
    const before = ledgerText();
    const csv = "name,email\nMaria,maria@acme.com\nBruno bruno@acme.com,\n";
    const res = await send(dan, "POST", "/v1/contacts/import", { csv });
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: { code: string; message: string; details: { row: number } } };
    expect(err.error.code).toBe("VALIDATION_ERROR");
    expect(err.error.details.row).toBe(3);
    expect(ledgerText()).toBe(before);
  });

  it("and the ledger itself refuses an entity or conversation whose name carries them (policy.no_raw_pii)", async () => {
    const tenant = t.demo.tenant_id;
    const base = {
      tenant_id: tenant,
      trace_id: "trc_names",
      ts: new Date().toISOString(),
      actor: { entity_id: "ent_human_dan", actor_type: "human" as const },
    };
    const entity = {
      ...base,
      event_id: `evt_names_${Date.now()}_1`,
      event_type: "entity.registered",
      conversation_id: "cnv_workspace",
      payload: { entity_id: "ent_eve", actor_type: "human", display_name: "Eve eve@acme.com", roles: [] },
    };
    await expect(t.server.ledger.append({ tenant_id: tenant, events: [entity] })).rejects.toMatchObject({
      code: "RAW_PII_DETECTED",
    });
    const conversation = {
      ...base,
      event_id: `evt_names_${Date.now()}_2`,
      event_type: "conversation.created",
      conversation_id: "cnv_names",
      payload: {
        conversation_id: "cnv_names",
        title: "Deals +1 415 555 0100",
        participants: [{ entity_id: "ent_human_dan" }],
      },
    };
    await expect(t.server.ledger.append({ tenant_id: tenant, events: [conversation] })).rejects.toMatchObject({
      code: "RAW_PII_DETECTED",
    });
  });
});
