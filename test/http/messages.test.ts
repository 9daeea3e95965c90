import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Edit, delete, reply and react through the real server: who may, the edit window on the
 * server's clock, bad input and limits, and that a deleted text is gone from the timeline, the
 * conversation list, the SSE resume log and members' ledger reads.
 */
const WINDOW_S = 600;
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let dan: string;
let ana: string;
const DM = "cnv_dan_ana";
const AGENT_CHAT = "cnv_9f2a";

beforeAll(async () => {
  t = await startTestServer({ clock, messageEditWindowSeconds: WINDOW_S });
  dan = t.demo.humans.find((h) => h.entity_id === "ent_human_dan")!.token;
  ana = t.demo.humans.find((h) => h.entity_id === "ent_human_ana")!.token;
});
afterAll(() => t.close());

const key = () => `k-${Math.random().toString(36).slice(2)}${Date.now()}`;

async function call(method: string, path: string, token: string, body?: unknown, idem = key()) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": idem },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any, headers: res.headers };
}

const msgPath = (cid: string, mid: string) => `/v1/conversations/${cid}/messages/${mid}`;
const edit = (token: string, cid: string, mid: string, body_text: string) =>
  call("PATCH", msgPath(cid, mid), token, { body_text });
const del = (token: string, cid: string, mid: string) => call("DELETE", msgPath(cid, mid), token);
const react = (token: string, cid: string, mid: string, emoji: string, on = true) =>
  call("POST", `${msgPath(cid, mid)}/reactions`, token, { emoji, on });

async function send(token: string, cid: string, body_text: string, extra: Record<string, unknown> = {}) {
  const r = await postJson(`${t.url}/v1/conversations/${cid}/messages`, token, { kind: "text", body_text, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.message_id as string;
}

async function items(token: string, cid: string) {
  const r = await getJson(`${t.url}/v1/conversations/${cid}/timeline?limit=1000`, token);
  expect(r.status).toBe(200);
  return r.body.items as any[];
}
const itemOf = async (token: string, cid: string, mid: string) =>
  (await items(token, cid)).find((i) => i.message.message_id === mid);

describe("editing a message", () => {
  it("lets only the author edit, shows the latest text marked edited, and tells the other person live", async () => {
    const s = openStream(t.url, { token: ana });
    await s.waitFor((f) => f.event === "hello");
    const mid = await send(dan, DM, "Lunch at 12?");

    const notMine = await edit(ana, DM, mid, "Lunch at 1?");
    expect(notMine.status).toBe(403);
    expect(notMine.body.error.code).toBe("UNAUTHORIZED_ACTION");

    const ok = await edit(dan, DM, mid, "Lunch at 12:30?");
    expect(ok.status).toBe(202);
    expect(ok.body).toMatchObject({ accepted: true, message_id: mid });
    const it1 = await itemOf(ana, DM, mid);
    expect(it1.message.body_text).toBe("Lunch at 12:30?");
    expect(it1.edited_at).toBeTruthy();
    const live = await s.waitFor((f) => f.event === "timeline.update" && f.data.item.message.message_id === mid);
    expect(live.data.item.message.body_text).toBe("Lunch at 12:30?");
    expect(live.data.item.edited_at).toBe(it1.edited_at);
    // The conversation list's preview follows the edit of the last message.
    const list = await getJson(`${t.url}/v1/conversations`, ana);
    expect(list.body.items.find((c: any) => c.conversation_id === DM).last_preview.text).toBe("Lunch at 12:30?");
    s.close();
  });

  it("moves typed contact details to the vault like a new message", async () => {
    const mid = await send(dan, DM, "Call me");
    await edit(dan, DM, mid, "Call me at maria@acme.com");
    const q = await getJson(
      `${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&event_type=message.edited&limit=1000`,
      dan,
    );
    const ev = q.body.events.find((e: any) => e.payload.message_id === mid);
    expect(JSON.stringify(ev)).not.toContain("maria@acme.com");
    expect(ev.payload.pii_refs[0].vault_ref).toMatch(/^vault_ref:/);
  });

  it("refuses edits after the window, on the server's clock", async () => {
    const mid = await send(dan, DM, "Meeting moved");
    await clock.advance((WINDOW_S - 5) * 1000);
    expect((await edit(dan, DM, mid, "Meeting moved to 3")).status).toBe(202);
    await clock.advance(10_000);
    const late = await edit(dan, DM, mid, "Meeting moved to 4");
    expect(late.status).toBe(403);
    expect(late.body.error).toMatchObject({ code: "EDIT_WINDOW_CLOSED", details: { edit_window_seconds: WINDOW_S } });
    expect((await itemOf(dan, DM, mid)).message.body_text).toBe("Meeting moved to 3");
  });

  it("refuses bad input with the standard error shape", async () => {
    const mid = await send(dan, DM, "typo heer");
    for (const [body, status] of [
      [{ body_text: "" }, 400],
      [{ body_text: "x".repeat(8001) }, 400],
      [{ body_text: "ok", extra: 1 }, 400],
      [{}, 400],
    ] as const) {
      const r = await call("PATCH", msgPath(DM, mid), dan, body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(status);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await edit(dan, DM, mid, "   ")).body.error.code).toBe("VALIDATION_ERROR");
    expect((await edit(dan, DM, mid, "x".repeat(8000))).status).toBe(202);
    expect((await edit(dan, DM, "msg_nope", "x")).status).toBe(404);
    // A message of another conversation, named through this one, is not found here.
    const elsewhere = await send(dan, AGENT_CHAT, "a note for the agent chat");
    expect((await edit(dan, DM, elsewhere, "x")).body.error).toMatchObject({
      code: "NOT_FOUND",
      details: { field: "message_id" },
    });
    // Not a member of the conversation: it does not exist for her.
    expect((await edit(ana, AGENT_CHAT, elsewhere, "x")).status).toBe(404);
  });

  it("is idempotent: the same key replays the stored answer and writes once", async () => {
    const mid = await send(dan, DM, "once");
    const k = key();
    const a = await call("PATCH", msgPath(DM, mid), dan, { body_text: "twice?" }, k);
    const b = await call("PATCH", msgPath(DM, mid), dan, { body_text: "twice?" }, k);
    expect(b.status).toBe(a.status);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body.created_event_ids).toEqual(a.body.created_event_ids);
    const other = await call("PATCH", msgPath(DM, mid), dan, { body_text: "thrice" }, k);
    expect(other.status).toBe(422);
  });
});

describe("replies", () => {
  it("quote the original with its sender, and follow its edits", async () => {
    const orig = await send(dan, DM, "Can you send the invoice?");
    const reply = await send(ana, DM, "Sent it this morning", { reply_to_message_id: orig });
    const it1 = await itemOf(dan, DM, reply);
    expect(it1.reply_to).toEqual({ message_id: orig, sender_name: "Dan", snippet: "Can you send the invoice?" });
    expect(it1.message.reply_to_message_id).toBe(orig);
    await edit(dan, DM, orig, "Can you send the March invoice?");
    expect((await itemOf(dan, DM, reply)).reply_to.snippet).toBe("Can you send the March invoice?");
  });

  it("refuse a message of another conversation, an unknown one and bad ids", async () => {
    const elsewhere = await send(dan, AGENT_CHAT, "agent chat only");
    for (const to of [elsewhere, "msg_nope"]) {
      const r = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, {
        kind: "text",
        body_text: "re",
        reply_to_message_id: to,
      });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "reply_to_message_id" } });
    }
    for (const to of ["", "x".repeat(129), 42]) {
      const r = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, {
        kind: "text",
        body_text: "re",
        reply_to_message_id: to,
      });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("reactions", () => {
  it("toggle per person, count, and name who reacted; the other person sees them live", async () => {
    const mid = await send(dan, DM, "We closed the deal!");
    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    expect((await react(ana, DM, mid, "🎉")).status).toBe(202);
    expect((await react(dan, DM, mid, "🎉")).status).toBe(202);
    expect((await react(ana, DM, mid, "👍")).status).toBe(202);
    let it1 = await itemOf(dan, DM, mid);
    expect(it1.reactions).toEqual([
      { emoji: "🎉", entity_ids: ["ent_human_ana", "ent_human_dan"], names: ["Ana", "Dan"] },
      { emoji: "👍", entity_ids: ["ent_human_ana"], names: ["Ana"] },
    ]);
    await s.waitFor(
      (f) =>
        f.event === "timeline.update" && f.data.item.message.message_id === mid && f.data.item.reactions?.length === 2,
    );
    // Putting it on twice changes nothing; taking it off removes only hers.
    await react(ana, DM, mid, "🎉");
    await react(ana, DM, mid, "🎉", false);
    await react(ana, DM, mid, "👍", false);
    it1 = await itemOf(dan, DM, mid);
    expect(it1.reactions).toEqual([{ emoji: "🎉", entity_ids: ["ent_human_dan"], names: ["Dan"] }]);
    s.close();
  });

  it("accept any single emoji and refuse anything else", async () => {
    const mid = await send(dan, DM, "emoji test");
    for (const ok of ["❤️", "👍🏽", "🇵🇹", "1️⃣", "👩‍👩‍👧", "🏳️‍🌈", "✅"])
      expect((await react(ana, DM, mid, ok)).status, ok).toBe(202);
    for (const bad of ["", "a", "ok", "👍👍", "1", "👍 ", "<b>", "x".repeat(40), "©️a"]) {
      const r = await react(ana, DM, mid, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await call("POST", `${msgPath(DM, mid)}/reactions`, ana, { emoji: "👍" })).status).toBe(400);
    expect((await call("POST", `${msgPath(DM, mid)}/reactions`, ana, { emoji: "👍", on: "yes" })).status).toBe(400);
  });

  it("hold at most 20 different emoji on one message", async () => {
    const mid = await send(dan, DM, "many reactions");
    const faces = [..."😀😃😄😁😆😅🤣😊😇🙂🙃😉😌😍🥰😘😗😙😚😋"];
    expect(faces).toHaveLength(20);
    for (const f of faces) expect((await react(ana, DM, mid, f)).status).toBe(202);
    const r = await react(ana, DM, mid, "🤔");
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "emoji", max: 20 } });
    // One already there can still be added by someone else.
    expect((await react(dan, DM, mid, "😀")).status).toBe(202);
  });
});

describe("deleting a message", () => {
  it("the author or an admin deletes; anyone else is refused", async () => {
    const dans = await send(dan, DM, "Dan's own");
    const anas = await send(ana, DM, "Ana's own");
    expect((await del(ana, DM, dans)).body.error.code).toBe("UNAUTHORIZED_ACTION");
    expect((await del(ana, DM, anas)).status).toBe(202);
    const anas2 = await send(ana, DM, "Ana again");
    // Dan is an admin of the demo workspace.
    expect((await del(dan, DM, anas2)).status).toBe(202);
    expect((await del(dan, DM, anas2)).body.error.code).toBe("NOT_FOUND");
    expect((await edit(ana, DM, anas, "back")).status).toBe(404);
    expect((await react(dan, DM, anas, "👍")).status).toBe(404);
    const reply = await postJson(`${t.url}/v1/conversations/${DM}/messages`, dan, {
      kind: "text",
      body_text: "re",
      reply_to_message_id: anas,
    });
    expect(reply.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "reply_to_message_id" } });
  });

  it("leaves 'deleted' and no text in the timeline, the list, replies, the SSE resume log and members' ledger reads", async () => {
    const secret = `the vault code is ${Math.random().toString(36).slice(2)}`;
    const edited = `${secret} (edited)`;
    const before = await getJson(`${t.url}/v1/conversations/${DM}/timeline?limit=1`, ana);
    const resumeFrom = before.body.items.at(-1)?.cursor ?? "seq:0";

    const mid = await send(dan, DM, secret);
    await edit(dan, DM, mid, edited);
    await react(ana, DM, mid, "👀");
    const reply = await send(ana, DM, "noted", { reply_to_message_id: mid });
    expect((await itemOf(ana, DM, reply)).reply_to.snippet).toBe(edited);

    const live = openStream(t.url, { token: ana });
    await live.waitFor((f) => f.event === "hello");
    expect((await del(dan, DM, mid)).status).toBe(202);
    const gone = await live.waitFor((f) => f.event === "timeline.update" && f.data.item.message.message_id === mid);
    expect(gone.data.item).toMatchObject({ deleted: true, message: { message_id: mid, kind: "text" } });
    expect(gone.data.item.message.body_text).toBeUndefined();
    expect(gone.data.item.reactions).toBeUndefined();
    const quote = await live.waitFor((f) => f.event === "timeline.update" && f.data.item.message.message_id === reply);
    expect(quote.data.item.reply_to).toEqual({ message_id: mid, sender_name: "Dan", deleted: true });
    live.close();

    const tl = await items(ana, DM);
    expect(JSON.stringify(tl)).not.toContain(secret);
    expect(tl.find((i) => i.message.message_id === mid)).toMatchObject({ deleted: true });
    const list = await getJson(`${t.url}/v1/conversations`, dan);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    // A client that reconnects from before the message gets every change since, without the text.
    const resumed = openStream(t.url, { token: ana, lastEventId: resumeFrom });
    await resumed.waitFor(
      (f) =>
        f.event === "timeline.update" &&
        f.data.item.message.message_id === reply &&
        f.data.item.reply_to?.deleted === true,
    );
    const appended = await resumed.waitFor(
      (f) => f.event === "timeline.append" && f.data.item.message.message_id === mid,
    );
    expect(appended.data.item.deleted).toBe(true);
    expect(JSON.stringify(resumed.frames)).not.toContain(secret);
    expect(
      resumed.frames.filter((f) => f.event === "timeline.update" && f.data.item.message.message_id === mid).length,
    ).toBeGreaterThanOrEqual(3);
    resumed.close();

    // A member reads the conversation's ledger events without the withdrawn text; an admin (the
    // whole log) still reads the original, and the deletion keeps only a salted hash.
    const q = (token: string) =>
      getJson(`${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&conversation_id=${DM}&limit=1000`, token);
    const asAna = await q(ana);
    expect(asAna.status).toBe(200);
    expect(JSON.stringify(asAna.body)).not.toContain(secret);
    const asDan = await q(dan);
    expect(JSON.stringify(asDan.body)).toContain(secret);
    const deleted = asDan.body.events.find(
      (e: any) => e.event_type === "message.deleted" && e.payload.message_id === mid,
    );
    expect(deleted.payload).toEqual({ message_id: mid, body_hash: expect.stringMatching(/^blake3:[0-9a-f]{64}$/) });
    expect(asAna.body.events.some((e: any) => e.event_type === "message.deleted" && e.payload.message_id === mid)).toBe(
      true,
    );
  });

  it("takes the text out of the conversation list when it was the last message", async () => {
    const s = openStream(t.url, { token: ana });
    await s.waitFor((f) => f.event === "hello");
    const mid = await send(dan, DM, "last words here");
    await del(dan, DM, mid);
    const upd = await s.waitFor(
      (f) => f.event === "conversation.update" && f.data.conversation.last_preview?.kind === "deleted",
    );
    expect(JSON.stringify(upd.data)).not.toContain("last words here");
    const list = await getJson(`${t.url}/v1/conversations`, ana);
    expect(list.body.items.find((c: any) => c.conversation_id === DM).last_preview).toEqual({ kind: "deleted" });
    s.close();
  });
});
