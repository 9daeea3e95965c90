import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
const T = "tnt_acme_001";
const req = async (path: string, init: RequestInit = {}): Promise<Response> => t.server.app.request(path, init);
const as = (token: string, method: string, path: string, body?: unknown, key: string | null = `k-${Math.random()}`) =>
  req(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(key && method !== "GET" ? { "idempotency-key": key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; details: unknown } }).error;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe("DELETE /v1/contacts/:id", () => {
  it("erases the contact's addresses, hides it from the list, and the ledger still verifies", async () => {
    const dan = t.demo.humans[0]!.token;
    const created = await as(dan, "POST", "/v1/contacts", {
      display_name: "Maria",
      email: "maria@acme.com",
      phone: "+351 912 345 678",
    });
    const { contact_id } = (await created.json()) as { contact_id: string };
    const upserted = t.server.ledger
      .query({ tenant_id: T, event_type: "contact.upserted", limit: 100 })
      .events.find((e) => (e.payload as any).contact_id === contact_id)!.payload as any;
    const refs: string[] = [...upserted.emails, ...upserted.phones].map((v: any) => v.vault_ref);
    expect(refs).toHaveLength(2);

    const del = await as(dan, "DELETE", `/v1/contacts/${contact_id}`, undefined, "delete-maria-0001");
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ accepted: true, contact_id, deleted: true, erased: 2 });
    const replay = await as(dan, "DELETE", `/v1/contacts/${contact_id}`, undefined, "delete-maria-0001");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    const list = ((await (await as(dan, "GET", "/v1/contacts")).json()) as any).items as any[];
    expect(list.find((c) => c.contact_id === contact_id)).toBeUndefined();
    const events = t.server.ledger.query({ tenant_id: T, event_type: "contact.upserted", limit: 100 }).events;
    expect(events.at(-1)!.payload).toMatchObject({ contact_id, deleted: true, emails: [], phones: [] });
    for (const r of refs) expect(t.server.office.vault.get(T, r)).toBeNull();
    expect(t.server.ledger.verify(T).ok).toBe(true);
    expect((await as(dan, "DELETE", `/v1/contacts/${contact_id}`)).status).toBe(404);
  });

  it("after the erase the timeline shows only the redacted form of the address", async () => {
    const dan = t.demo.humans[0]!.token;
    const timeline = async () =>
      JSON.stringify(await (await as(dan, "GET", "/v1/conversations/cnv_9f2a/timeline")).json());
    const { contact_id } = (await (
      await as(dan, "POST", "/v1/contacts", { display_name: "Carla", email: "carla@acme.com" })
    ).json()) as { contact_id: string };
    expect(
      (
        await as(dan, "POST", "/v1/conversations/cnv_9f2a/messages", {
          kind: "text",
          body_text: "Carla's address is carla@acme.com",
        })
      ).status,
    ).toBe(202);
    expect(await timeline()).toContain("carla@acme.com");
    expect((await as(dan, "DELETE", `/v1/contacts/${contact_id}`)).status).toBe(200);
    const after = await timeline();
    expect(after).not.toContain("carla@acme.com");
    expect(after).toContain("c***@acme.com");
    expect(t.server.ledger.verify(T).ok).toBe(true);
  });

  it("refuses bad calls with the standard error shape", async () => {
    const dan = t.demo.humans[0]!.token;
    const ana = t.demo.humans[1]!.token;
    const { contact_id } = (await (
      await as(dan, "POST", "/v1/contacts", { display_name: "Bruno", email: "bruno@acme.com" })
    ).json()) as { contact_id: string };

    const noKey = await as(dan, "DELETE", `/v1/contacts/${contact_id}`, undefined, null);
    expect(noKey.status).toBe(400);
    expect(await errorOf(noKey)).toMatchObject({ code: "VALIDATION_ERROR", details: expect.anything() });
    const notAdmin = await as(ana, "DELETE", `/v1/contacts/${contact_id}`);
    expect(notAdmin.status).toBe(403);
    expect((await errorOf(notAdmin)).code).toBe("FORBIDDEN");
    const unknown = await as(dan, "DELETE", "/v1/contacts/ctc_nobody");
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe("NOT_FOUND");

    const ws = await req("/v1/workspaces", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "workspace-erasure-0001" },
      body: JSON.stringify({ name: "Other", owner: { display_name: "Olga" } }),
    });
    const olga = ((await ws.json()) as { token: string }).token;
    const foreign = await as(olga, "DELETE", `/v1/contacts/${contact_id}`);
    expect(foreign.status).toBe(404);
    expect((await errorOf(foreign)).code).toBe("NOT_FOUND");

    const list = ((await (await as(dan, "GET", "/v1/contacts")).json()) as any).items as any[];
    expect(list.find((c) => c.contact_id === contact_id)?.emails[0].value).toBe("bruno@acme.com");
  });
});
