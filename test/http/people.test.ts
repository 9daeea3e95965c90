import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * Profiles, hand-overs and "Why?" over real HTTP: writes as ledger events under the policy
 * pack, bad input refused in the standard error shape, live frames, and notifications.
 */
let t: TestServer;
let dan: string;
let ana: string;
const DAN = "ent_human_dan";
const ANA = "ent_human_ana";
const AGENT = "ent_agent_scheduler";

beforeAll(async () => {
  t = await startTestServer();
  dan = demoPerson(t, "Dan").token;
  ana = demoPerson(t, "Ana").token;
}, 30_000);
afterAll(() => t?.close());

async function put(path: string, token: string, body: unknown, key?: string) {
  const res = await fetch(`${t.url}${path}`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": key ?? `k-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const entity = async (id: string) =>
  (await getJson(`${t.url}/v1/entities`, dan)).body.items.find((e: any) => e.entity_id === id);
const ledgerEvents = (type: string) =>
  t.server.ledger.query({ tenant_id: "tnt_acme_001", event_type: type, limit: 1000 }).events as any[];

describe("profiles", () => {
  it("a person sets their name, zone and language: one entity.profile_updated, seen by everyone", async () => {
    const r = await put("/v1/me/profile", ana, {
      display_name: "Ana Lima",
      time_zone: "America/New_York",
      locale: "pt-br",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      entity_id: ANA,
      display_name: "Ana Lima",
      time_zone: "America/New_York",
      locale: "pt-BR",
    });
    const ev = ledgerEvents("entity.profile_updated").find((e) => e.event_id === r.body.created_event_ids[0]);
    expect(ev.actor).toEqual({ entity_id: ANA, actor_type: "human" });
    expect(ev.payload).toEqual({
      entity_id: ANA,
      display_name: "Ana Lima",
      time_zone: "America/New_York",
      locale: "pt-BR",
    });
    expect(await entity(ANA)).toMatchObject({
      display_name: "Ana Lima",
      time_zone: "America/New_York",
      locale: "pt-BR",
    });
  });

  it("the session answers the language chosen in the profile; Automatic is saved as und (no language)", async () => {
    expect((await put("/v1/me/profile", dan, { locale: "pt-PT" })).status).toBe(200);
    expect((await getJson(`${t.url}/v1/session`, dan)).body).toMatchObject({ entity_id: DAN, locale: "pt-PT" });
    expect((await put("/v1/me/profile", dan, { locale: "und" })).status).toBe(200);
    expect((await getJson(`${t.url}/v1/session`, dan)).body.locale).toBe("und");
  });

  it("the same key and body replays the answer and writes nothing more", async () => {
    const before = ledgerEvents("entity.profile_updated").length;
    const a = await put("/v1/me/profile", ana, { locale: "en-GB" }, "k-profile-same");
    const b = await put("/v1/me/profile", ana, { locale: "en-GB" }, "k-profile-same");
    expect(b).toEqual(a);
    expect(ledgerEvents("entity.profile_updated").length).toBe(before + 1);
  });

  it("bad input is refused in the standard shape", async () => {
    for (const [body, field] of [
      [{ time_zone: "Mars/Olympus" }, "time_zone"],
      [{ time_zone: "EST" }, "time_zone"],
      [{ time_zone: "+01:00" }, "time_zone"],
      [{ locale: "not a tag!" }, "locale"],
    ] as const) {
      const r = await put("/v1/me/profile", ana, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
      expect(r.body.error.details.field).toBe(field);
    }
    for (const body of [
      {},
      { display_name: "" },
      { display_name: "x".repeat(121) },
      { avatar_url: "https://evil.example/x.png" },
      { time_zone: "x".repeat(65) },
    ]) {
      const r = await put("/v1/me/profile", ana, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
    const pii = await put("/v1/me/profile", ana, { display_name: "ana.lima@acme.com" });
    expect(pii.status).toBe(422);
    expect(pii.body.error.code).toBe("RAW_PII_DETECTED");
  });

  it("an admin renames someone else, and only that; a member renames nobody", async () => {
    const renamed = await put(`/v1/entities/${ANA}/profile`, dan, { display_name: "Ana L." });
    expect(renamed.status).toBe(200);
    expect((await entity(ANA)).display_name).toBe("Ana L.");
    const zone = await put(`/v1/entities/${ANA}/profile`, dan, { time_zone: "Asia/Tokyo" });
    expect(zone.status).toBe(403);
    expect((await entity(ANA)).time_zone).toBe("America/New_York");
    const member = await put(`/v1/entities/${DAN}/profile`, ana, { display_name: "Not Dan" });
    expect(member.status).toBe(403);
    expect((await put("/v1/entities/ent_human_nobody/profile", dan, { display_name: "X" })).status).toBe(404);
  });

  it("pushes an entity.update frame to every stream of the workspace", async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${t.url}/v1/stream`, { headers: { authorization: `Bearer ${dan}` }, signal: ctrl.signal });
    const reader = res.body!.getReader();
    let text = "";
    const read = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
        if (text.includes("event: entity.update")) return;
      }
    })();
    await waitFor(() => text.includes("event: hello"), 5000, "hello");
    await put("/v1/me/profile", ana, { display_name: "Ana Live" });
    await Promise.race([read, new Promise((r) => setTimeout(r, 5000))]);
    ctrl.abort();
    const frame = text.split("\n\n").find((f) => f.includes("event: entity.update"))!;
    expect(
      JSON.parse(
        frame
          .split("\n")
          .find((l) => l.startsWith("data: "))!
          .slice(6),
      ).entity,
    ).toMatchObject({ entity_id: ANA, display_name: "Ana Live", time_zone: "America/New_York" });
  });
});

describe("hand over and why", () => {
  let group = "";
  let jobId = "";

  beforeAll(async () => {
    const c = await postJson(`${t.url}/v1/conversations`, dan, {
      title: "Team",
      participants: [{ entity_id: DAN }, { entity_id: ANA }, { entity_id: AGENT }],
    });
    group = c.body.conversation_id;
    await postJson(`${t.url}/v1/conversations/${group}/messages`, dan, {
      kind: "text",
      body_text: "@Office Scheduler can you schedule a 30-min call with Maria next week?",
    });
    const card = await waitFor(
      async () =>
        (await getJson(`${t.url}/v1/conversations/${group}/timeline`, dan)).body.items
          .map((i: any) => i.message?.card)
          .find((x: any) => x?.card_type === "job.formalize"),
      8000,
      "formalize card",
    );
    jobId = card.job_id;
  }, 20_000);

  it("refuses bad hand-overs with clear errors and writes nothing", async () => {
    const cases: Array<[string, unknown, number, string]> = [
      [dan, { to_entity_id: AGENT }, 400, "VALIDATION_ERROR"],
      [dan, { to_entity_id: "ent_human_nobody" }, 400, "VALIDATION_ERROR"],
      [dan, { to_entity_id: ANA, note: "x".repeat(501) }, 400, "VALIDATION_ERROR"],
      [dan, { to_entity_id: ANA, extra: 1 }, 400, "VALIDATION_ERROR"],
      // Ana neither asked for the job nor approves: the policy pack says no.
      [ana, { to_entity_id: ANA }, 403, "UNAUTHORIZED_ACTION"],
    ];
    for (const [token, body, status, code] of cases) {
      const r = await postJson(`${t.url}/v1/jobs/${jobId}/hand-over`, token, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.code).toBe(code);
    }
    expect((await postJson(`${t.url}/v1/jobs/job_unknown/hand-over`, dan, { to_entity_id: ANA })).status).toBe(404);
    expect(ledgerEvents("job.handed_over")).toHaveLength(0);
  });

  it("Dan hands the job to Ana: she owns it, it waits on her, she is told, and its buttons are gone", async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${t.url}/v1/stream`, { headers: { authorization: `Bearer ${ana}` }, signal: ctrl.signal });
    const reader = res.body!.getReader();
    let text = "";
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    await waitFor(() => text.includes("event: hello"), 5000, "hello");
    const r = await postJson(`${t.url}/v1/jobs/${jobId}/hand-over`, dan, { to_entity_id: ANA, note: "You know Maria" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ job_id: jobId, owner_entity_id: ANA });
    const [handed] = ledgerEvents("job.handed_over");
    expect(handed.payload).toEqual({ job_id: jobId, from_entity_id: AGENT, to_entity_id: ANA, note: "You know Maria" });
    const job = (await getJson(`${t.url}/v1/jobs/${jobId}`, ana)).body;
    const header = job.job ?? job;
    expect(header.owner.entity_id).toBe(ANA);
    expect(header.waiting_on).toEqual([{ entity_id: ANA, display_name: expect.any(String) }]);
    // The agent no longer acts on it: only "Ask in chat" is left, on the card that names Ana.
    expect(header.available_actions.map((b: any) => b.action.type)).toEqual(["chat.ask"]);
    await waitFor(() => text.includes("Handed to you"), 5000, "notification");
    ctrl.abort();
    const line = (await getJson(`${t.url}/v1/conversations/${group}/timeline`, ana)).body.items
      .map((i: any) => i.message?.body_text)
      .filter(Boolean);
    expect(line).toContain("Dan handed “Schedule call with Maria” over to Ana Live: You know Maria");
    // A second hand-over to the same person is a conflict.
    expect((await postJson(`${t.url}/v1/jobs/${jobId}/hand-over`, dan, { to_entity_id: ANA })).status).toBe(409);
  });

  it("GET …/why tells the chain from the ledger, with links into the Job Drawer; other people's jobs are not found", async () => {
    const r = await getJson(`${t.url}/v1/jobs/${jobId}/why`, dan);
    expect(r.status).toBe(200);
    const types = r.body.lines.map((l: any) => l.event_type);
    expect(types[0]).toBe("message.sent");
    expect(types).toEqual(expect.arrayContaining(["job.created", "job.proposed", "job.handed_over"]));
    for (const l of r.body.lines) expect(l.url).toBe(`/jobs/${jobId}#${l.event_id}`);
    expect(r.body.lines.find((l: any) => l.event_type === "job.handed_over").text).toBe(
      "Dan handed it over from Office Scheduler to Ana Live: You know Maria",
    );
    const other = await startOtherTenantToken();
    expect((await getJson(`${t.url}/v1/jobs/${jobId}/why`, other)).status).toBe(404);
  });
});

async function startOtherTenantToken(): Promise<string> {
  const r = await postJson(`${t.url}/v1/workspaces`, "", { name: "Other Co", owner: { display_name: "Olga" } });
  return r.body.token;
}
