import { afterEach, describe, expect, it } from "vitest";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";

/**
 * Membership over real HTTP: add, rename, remove, leave (each a ledger event the policy pack
 * checks), what removal ends at once (reads, posts, the open stream), and mentions. Demo: Dan
 * (admin) and Ana (member) in cnv_dan_ana; Dan and Office Scheduler in cnv_9f2a.
 */
let t: TestServer;
afterEach(() => t?.close());

const AGENT = "ent_agent_scheduler";
const DAN = "ent_human_dan";
const ANA = "ent_human_ana";
const dan = () => demoPerson(t, "Dan").token;
const ana = () => demoPerson(t, "Ana").token;

async function send(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "idempotency-key": `k-${Math.random().toString(36).slice(2)}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function group(token: string, participants: string[], title = "Team") {
  const r = await postJson(`${t.url}/v1/conversations`, token, {
    title,
    participants: participants.map((entity_id) => ({ entity_id })),
  });
  expect(r.status).toBe(202);
  return r.body.conversation_id as string;
}

const timeline = async (c: string, token: string) =>
  (await getJson(`${t.url}/v1/conversations/${c}/timeline`, token)).body.items as any[];
const detail = async (c: string, token: string) => (await getJson(`${t.url}/v1/conversations/${c}`, token)).body;

describe("membership: add, rename, remove and leave are events with rules", () => {
  it("any member adds and renames; removing others is for the creator or an admin; each shows as a line", async () => {
    t = await startTestServer();
    const billing = await postJson(`${t.url}/v1/agents`, dan(), { display_name: "Billing Agent", role: "Billing" });
    expect(billing.status).toBe(201);
    const BILLING = billing.body.entity_id as string;
    const c = await group(dan(), [ANA, AGENT]);
    expect((await detail(c, ana())).conversation).toMatchObject({ kind: "group", created_by: DAN });

    expect((await send("PUT", `/v1/conversations/${c}/title`, ana(), { title: "Lunch crew" })).status).toBe(202);
    expect((await send("POST", `/v1/conversations/${c}/members`, ana(), { entity_id: BILLING })).status).toBe(202);
    let d = await detail(c, dan());
    expect(d.conversation.title).toBe("Lunch crew");
    expect(d.participants.map((x: any) => x.entity_id)).toEqual([DAN, ANA, AGENT, BILLING]);

    // Ana neither started this conversation nor is an admin.
    const refused = await send("DELETE", `/v1/conversations/${c}/members/${BILLING}`, ana());
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
    expect((await send("DELETE", `/v1/conversations/${c}/members/${BILLING}`, dan())).status).toBe(202);
    d = await detail(c, dan());
    expect(d.participants.map((x: any) => x.entity_id)).toEqual([DAN, ANA, AGENT]);

    const lines = (await timeline(c, ana())).filter((i) => i.message.kind === "system").map((i) => i.message.body_text);
    expect(lines).toEqual([
      "Ana renamed the conversation to “Lunch crew”",
      "Ana added Billing Agent",
      "Dan removed Billing Agent",
    ]);

    // The ledger has the facts, and the chain still verifies.
    const events = (
      await getJson(`${t.url}/v1/ledger/query?tenant_id=tnt_acme_001&conversation_id=${c}&limit=100`, dan())
    ).body.events as any[];
    expect(events.map((e) => e.event_type).filter((x) => x.startsWith("conversation."))).toEqual([
      "conversation.created",
      "conversation.renamed",
      "conversation.member_added",
      "conversation.member_removed",
    ]);
    expect(events.at(-1).payload).toEqual({ entity_id: BILLING, reason: "removed" });
    expect((await getJson(`${t.url}/v1/ledger/verify?tenant_id=tnt_acme_001`, dan())).body.ok).toBe(true);
  });

  it("refuses bad input and what the rules do not allow, in the standard shape", async () => {
    t = await startTestServer();
    const c = await group(ana(), [DAN]);
    const cases: Array<[string, string, string, unknown, number, string]> = [
      ["add: no body field", "POST", `/v1/conversations/${c}/members`, {}, 400, "VALIDATION_ERROR"],
      [
        "add: an unknown key",
        "POST",
        `/v1/conversations/${c}/members`,
        { entity_id: AGENT, role: "x" },
        400,
        "VALIDATION_ERROR",
      ],
      ["add: not JSON", "POST", `/v1/conversations/${c}/members`, "{", 400, "INVALID_JSON"],
      [
        "add: nobody of this workspace",
        "POST",
        `/v1/conversations/${c}/members`,
        { entity_id: "ent_human_nobody" },
        404,
        "NOT_FOUND",
      ],
      ["add: already a member", "POST", `/v1/conversations/${c}/members`, { entity_id: DAN }, 409, "CONFLICT"],
      [
        "add: to a conversation I am not in",
        "POST",
        "/v1/conversations/cnv_9f2a/members",
        { entity_id: ANA },
        404,
        "NOT_FOUND",
      ],
      ["rename: empty", "PUT", `/v1/conversations/${c}/title`, { title: "   " }, 400, "VALIDATION_ERROR"],
      ["rename: too long", "PUT", `/v1/conversations/${c}/title`, { title: "x".repeat(121) }, 400, "VALIDATION_ERROR"],
      ["rename: a direct chat", "PUT", "/v1/conversations/cnv_dan_ana/title", { title: "Us" }, 409, "CONFLICT"],
      [
        "rename: a conversation I am not in",
        "PUT",
        "/v1/conversations/cnv_9f2a/title",
        { title: "Mine" },
        404,
        "NOT_FOUND",
      ],
      ["remove: someone not in it", "DELETE", `/v1/conversations/${c}/members/${AGENT}`, undefined, 404, "NOT_FOUND"],
      [
        "remove: from a direct chat",
        "DELETE",
        `/v1/conversations/cnv_dan_ana/members/${DAN}`,
        undefined,
        409,
        "CONFLICT",
      ],
      [
        "remove: an id far too long",
        "DELETE",
        `/v1/conversations/${c}/members/${"e".repeat(300)}`,
        undefined,
        400,
        "INVALID_INPUT",
      ],
    ];
    for (const [name, method, path, body, status, code] of cases) {
      const r = await send(method, path, ana(), body);
      expect({ name, status: r.status, code: r.body?.error?.code }).toEqual({ name, status, code });
      expect(typeof r.body.error.message).toBe("string");
    }
    // A title with an address keeps only its redaction.
    expect((await send("PUT", `/v1/conversations/${c}/title`, ana(), { title: "Call maria@example.com" })).status).toBe(
      202,
    );
    expect((await detail(c, ana())).conversation.title).not.toContain("maria@example.com");
    // Idempotent: the same key and body answers the same and appends nothing more.
    const key = "k-members-same-1";
    const once = await postJson(`${t.url}/v1/conversations/${c}/members`, ana(), { entity_id: AGENT }, key);
    const twice = await postJson(`${t.url}/v1/conversations/${c}/members`, ana(), { entity_id: AGENT }, key);
    expect(twice.body).toEqual(once.body);
    expect(twice.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a direct chat someone joins becomes a group named after its members", async () => {
    t = await startTestServer();
    expect((await send("POST", "/v1/conversations/cnv_dan_ana/members", ana(), { entity_id: AGENT })).status).toBe(202);
    const d = await detail("cnv_dan_ana", ana());
    expect(d.conversation.kind).toBe("group");
    expect(d.conversation.title).toBe("Dan, Ana, Office Scheduler");
  });
});

describe("removal ends access to new messages at once", () => {
  it("the removed person's stream stops getting the conversation, their reads and posts are refused, lists update live", async () => {
    t = await startTestServer();
    const c = await group(dan(), [ANA]);
    const anaStream = openStream(t.url, { token: ana() });
    const danStream = openStream(t.url, { token: dan() });
    await anaStream.waitFor((f) => f.event === "hello");
    await danStream.waitFor((f) => f.event === "hello");

    await postJson(`${t.url}/v1/conversations/${c}/messages`, dan(), { kind: "text", body_text: "before you go" });
    await anaStream.waitFor(
      (f) => f.event === "timeline.append" && f.data.item.message.body_text === "before you go",
      5000,
      "the message before removal",
    );

    expect((await send("DELETE", `/v1/conversations/${c}/members/${ANA}`, dan())).status).toBe(202);
    const gone = await anaStream.waitFor((f) => f.event === "conversation.removed", 5000, "conversation.removed");
    expect(gone.data).toMatchObject({ conversation_id: c, reason: "removed" });
    // Everyone still in it sees who is in it now.
    await danStream.waitFor(
      (f) =>
        f.event === "conversation.update" &&
        f.data.conversation.conversation_id === c &&
        f.data.conversation.participant_entity_ids?.length === 1,
    );

    await postJson(`${t.url}/v1/conversations/${c}/messages`, dan(), { kind: "text", body_text: "after you left" });
    await danStream.waitFor(
      (f) => f.event === "timeline.append" && f.data.item.message.body_text === "after you left",
      5000,
      "Dan's own message",
    );
    // The same flush wrote Dan's frame: Ana's stream, open all along, never gets it.
    await new Promise((r) => setTimeout(r, 200));
    expect(anaStream.frames.some((f) => JSON.stringify(f.data).includes("after you left"))).toBe(false);

    expect((await getJson(`${t.url}/v1/conversations/${c}/timeline`, ana())).status).toBe(404);
    expect((await getJson(`${t.url}/v1/conversations/${c}`, ana())).status).toBe(404);
    expect(
      (await postJson(`${t.url}/v1/conversations/${c}/messages`, ana(), { kind: "text", body_text: "still here?" }))
        .status,
    ).toBe(404);
    expect(
      (await getJson(`${t.url}/v1/conversations`, ana())).body.items.some((x: any) => x.conversation_id === c),
    ).toBe(false);
    const mine = (await getJson(`${t.url}/v1/ledger/query?tenant_id=tnt_acme_001&limit=1000`, ana())).body
      .events as any[];
    expect(mine.some((e) => e.payload?.body_text === "after you left")).toBe(false);

    // Added back, she reads it again (history included) and her list gains it live.
    expect((await send("POST", `/v1/conversations/${c}/members`, dan(), { entity_id: ANA })).status).toBe(202);
    await anaStream.waitFor(
      (f) =>
        f.event === "conversation.update" &&
        f.data.conversation.conversation_id === c &&
        f.data.conversation.title === "Team",
      5000,
      "the row back",
    );
    expect((await timeline(c, ana())).some((i) => i.message.body_text === "after you left")).toBe(true);
    anaStream.close();
    danStream.close();
  });

  it("leaving: anyone may leave, and the others see it live", async () => {
    t = await startTestServer();
    const c = await group(dan(), [ANA, AGENT]);
    const danStream = openStream(t.url, { token: dan() });
    await danStream.waitFor((f) => f.event === "hello");
    expect((await send("DELETE", `/v1/conversations/${c}/members/${ANA}`, ana())).status).toBe(202);
    const line = await danStream.waitFor(
      (f) => f.event === "timeline.append" && f.data.conversation_id === c,
      5000,
      "the line",
    );
    expect(line.data.item.message).toMatchObject({ kind: "system", body_text: "Ana left" });
    expect((await getJson(`${t.url}/v1/conversations/${c}`, ana())).status).toBe(404);
    const events = (
      await getJson(`${t.url}/v1/ledger/query?tenant_id=tnt_acme_001&conversation_id=${c}&limit=100`, dan())
    ).body.events as any[];
    expect(events.at(-1)).toMatchObject({
      event_type: "conversation.member_removed",
      actor: { entity_id: ANA },
      payload: { entity_id: ANA, reason: "left" },
    });
    danStream.close();
  });
});

describe("mentions", () => {
  it("are members of the conversation or agents of the workspace; they are stored and notify", async () => {
    t = await startTestServer();
    const c = await group(dan(), [ANA]);
    const anaStream = openStream(t.url, { token: ana() });
    await anaStream.waitFor((f) => f.event === "hello");
    const post = (body: object) =>
      postJson(`${t.url}/v1/conversations/${c}/messages`, dan(), { kind: "text", ...body });

    expect((await post({ body_text: "@Ana lunch?", mentions: [{ entity_id: ANA }, { entity_id: ANA }] })).status).toBe(
      202,
    );
    const item = await anaStream.waitFor(
      (f) => f.event === "timeline.append" && f.data.item.message.body_text === "@Ana lunch?",
    );
    expect(item.data.item.message.mentions).toEqual([{ entity_id: ANA }]);
    const told = await anaStream.waitFor((f) => f.event === "notification", 5000, "the mention notification");
    expect(told.data.notification).toMatchObject({ kind: "mention", conversation_id: c });
    expect(told.data.notification.title).toContain("Dan mentioned you");

    // An agent not in the conversation may be mentioned (the composer then offers to add it).
    expect((await post({ body_text: "@Office Scheduler hi", mentions: [{ entity_id: AGENT }] })).status).toBe(202);

    const bad: Array<[object, string]> = [
      [{ body_text: "x", mentions: [{ entity_id: "ent_human_nobody" }] }, "mentions[0].entity_id"],
      [{ body_text: "x", mentions: [{ entity_id: ANA }, { entity_id: "e".repeat(300) }] }, ""],
      [{ body_text: "x", mentions: [{ id: ANA }] }, ""],
      [{ body_text: "x", mentions: Array.from({ length: 51 }, () => ({ entity_id: ANA })) }, ""],
    ];
    for (const [body, field] of bad) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
      if (field) expect(r.body.error.details.field).toBe(field);
    }
    // A person outside the conversation cannot be mentioned into it.
    const c2 = await group(dan(), [AGENT]);
    const r = await postJson(`${t.url}/v1/conversations/${c2}/messages`, dan(), {
      kind: "text",
      body_text: "@Ana",
      mentions: [{ entity_id: ANA }],
    });
    expect(r.status).toBe(400);
    anaStream.close();
  });
});
