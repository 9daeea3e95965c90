import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../contracts/facts.js";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Threads through the real server: a reply in a thread stays out of the conversation's timeline
 * (only the root's count changes there), members alone read and write threads, a reply to a
 * deleted or missing root is refused, followers are told of new replies and keep their own unread
 * mark, and the stream, a reload and a restart say the same counts and follow state.
 */
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let dan: string;
let ana: string;
const DM = "cnv_dan_ana";
const AGENT_CHAT = "cnv_9f2a";

beforeAll(async () => {
  t = await startTestServer({ clock, keep: true });
  dan = t.demo.humans.find((h) => h.entity_id === "ent_human_dan")!.token;
  ana = t.demo.humans.find((h) => h.entity_id === "ent_human_ana")!.token;
});
afterAll(async () => {
  const { rmSync } = await import("node:fs");
  await t.close();
  rmSync(t.dataDir, { recursive: true, force: true });
});

const post = (token: string, cid: string, body: Record<string, unknown>) =>
  postJson(`${t.url}/v1/conversations/${cid}/messages`, token, { kind: "text", ...body });
async function send(token: string, cid: string, body_text: string, thread_root_message_id?: string) {
  const r = await post(token, cid, { body_text, ...(thread_root_message_id ? { thread_root_message_id } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.message_id as string;
}
const threadPath = (cid: string, root: string) => `${t.url}/v1/conversations/${cid}/threads/${root}`;
const thread = async (token: string, cid: string, root: string) => (await getJson(threadPath(cid, root), token)).body;
const marks = async (token: string, cid: string) =>
  (await getJson(`${t.url}/v1/conversations/${cid}/threads`, token)).body.threads as any[];
const follow = (token: string, cid: string, root: string, on: boolean) =>
  postJson(`${threadPath(cid, root)}/follow`, token, { on });
const read = (token: string, cid: string, root: string, cursor: string) =>
  postJson(`${threadPath(cid, root)}/read`, token, { cursor });
const timeline = async (token: string, cid: string) =>
  (await getJson(`${t.url}/v1/conversations/${cid}/timeline?limit=1000`, token)).body.items as any[];
const listRow = async (token: string, cid: string) =>
  (await getJson(`${t.url}/v1/conversations`, token)).body.items.find((c: any) => c.conversation_id === cid);

describe("a reply in a thread", () => {
  it("goes to its thread, live, and only the root's count changes in the timeline", async () => {
    const root = await send(dan, DM, "Who brings the projector on Friday?");
    const rowBefore = await listRow(ana, DM);
    const stream = openStream(t.url, { token: dan });
    await stream.waitFor((f) => f.event === "hello");
    const reply = await send(ana, DM, "I can, it is in my car", root);

    const appended = await stream.waitFor(
      (f) => f.event === "thread.append" && f.data.item.message.message_id === reply,
    );
    expect(appended.data).toMatchObject({ conversation_id: DM, root_message_id: root });
    expect(appended.data.item.message).toMatchObject({
      body_text: "I can, it is in my car",
      thread_root_message_id: root,
    });
    const counted = await stream.waitFor(
      (f) => f.event === "timeline.update" && f.data.item.message.message_id === root,
    );
    expect(counted.data.item.thread).toEqual({ reply_count: 1, last_reply_ts: appended.data.item.ts });
    // Dan wrote the root: he follows the thread, and Ana's reply is unread for him.
    const mark = await stream.waitFor((f) => f.event === "thread.update" && f.data.root_message_id === root);
    expect(mark.data).toEqual({
      tenant_id: t.demo.tenant_id,
      conversation_id: DM,
      root_message_id: root,
      following: true,
      unread_count: 1,
    });
    const told = await stream.waitFor((f) => f.event === "notification" && f.data.notification.kind === "thread_reply");
    expect(told.data.notification).toMatchObject({
      title: "Ana replied in a thread in Dan & Ana",
      body: "I can, it is in my car",
      url: `/c/${DM}/t/${root}`,
    });
    expect(stream.frames.some((f) => f.event === "timeline.append" && f.data.item.message.message_id === reply)).toBe(
      false,
    );
    stream.close();

    // A reload says the same: the reply is in the thread, not the timeline; the list row did not move.
    const items = await timeline(dan, DM);
    expect(items.some((i) => i.message.message_id === reply)).toBe(false);
    expect(items.find((i) => i.message.message_id === root)).toEqual(counted.data.item);
    const view = await thread(dan, DM, root);
    expect(view.root).toEqual(counted.data.item);
    expect(view.replies).toEqual([appended.data.item]);
    expect(view.mark).toEqual({ root_message_id: root, following: true, unread_count: 1 });
    // Search finds the reply and names its thread, so the hit opens the thread.
    const found = (await getJson(`${t.url}/v1/search?q=${encodeURIComponent("my car")}`, dan)).body.items;
    expect(found.map((h: any) => [h.message_id, h.thread_root_message_id])).toEqual([[reply, root]]);
    const rowAfter = await listRow(ana, DM);
    expect(rowAfter.last_preview).toEqual(rowBefore.last_preview);
    expect(rowAfter.last_item_ts).toBe(rowBefore.last_item_ts);
    expect(await marks(dan, DM)).toContainEqual({ root_message_id: root, following: true, unread_count: 1 });
    // Ana replied, so she follows too, with nothing unread (she wrote it).
    expect((await thread(ana, DM, root)).mark).toEqual({ root_message_id: root, following: true, unread_count: 0 });
  });

  it("is refused for a missing, deleted or other conversation's root, for a reply as a root, and beyond the message limit", async () => {
    const missing = await post(dan, DM, { body_text: "hello?", thread_root_message_id: "msg_does_not_exist" });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "thread_root_message_id" } });

    const doomed = await send(dan, DM, "This plan is off");
    const del = await fetch(`${t.url}/v1/conversations/${DM}/messages/${doomed}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "k-del-root" },
    });
    expect(del.status).toBe(202);
    const toDeleted = await post(ana, DM, { body_text: "why?", thread_root_message_id: doomed });
    expect(toDeleted.status).toBe(404);
    expect(toDeleted.body.error.message).toBe("thread_root_message_id names a deleted message");

    const elsewhere = await send(dan, AGENT_CHAT, "Only Dan and the agent read this");
    const sideways = await post(ana, DM, { body_text: "peek", thread_root_message_id: elsewhere });
    expect(sideways.status).toBe(404);
    expect(JSON.stringify(sideways.body)).not.toContain("Only Dan");

    const root = await send(dan, DM, "Lunch options");
    const reply = await send(ana, DM, "Pizza", root);
    const nested = await post(dan, DM, { body_text: "With pineapple?", thread_root_message_id: reply });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "thread_root_message_id" } });

    const long = await post(dan, DM, { body_text: "x".repeat(LIMITS.messageChars + 1), thread_root_message_id: root });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("VALIDATION_ERROR");
    const empty = await post(dan, DM, { body_text: "   ", thread_root_message_id: root });
    expect(empty.status).toBe(400);
    expect((await thread(dan, DM, root)).replies.map((r: any) => r.message.body_text)).toEqual(["Pizza"]);
  });

  it("is for members only: outsiders read, write and follow nothing, and get the same NOT_FOUND", async () => {
    const root = await send(dan, AGENT_CHAT, "Quarterly numbers, draft");
    await send(dan, AGENT_CHAT, "Revenue up 4%", root);
    for (const r of [
      await getJson(threadPath(AGENT_CHAT, root), ana),
      await getJson(`${t.url}/v1/conversations/${AGENT_CHAT}/threads`, ana),
      await post(ana, AGENT_CHAT, { body_text: "me too", thread_root_message_id: root }),
      await follow(ana, AGENT_CHAT, root, true),
      await read(ana, AGENT_CHAT, root, "seq:1"),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("NOT_FOUND");
      expect(JSON.stringify(r.body)).not.toContain("Revenue");
    }
    // Naming her own chat with another chat's root is no way in either.
    expect((await getJson(threadPath(DM, root), ana)).status).toBe(404);
    const bad = await postJson(`${threadPath(DM, root)}/follow`, ana, { on: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("following a thread", () => {
  it("tells followers only, keeps each one's unread mark, and follows again on replying", async () => {
    const root = await send(ana, DM, "Offsite: mountains or sea?");
    await send(dan, DM, "Mountains", root);
    // Ana wrote the root: Dan's reply is unread for her until she reads it.
    let view = await thread(ana, DM, root);
    expect(view.mark).toEqual({ root_message_id: root, following: true, unread_count: 1 });
    expect((await read(ana, DM, root, view.cursor)).status).toBe(202);
    expect((await thread(ana, DM, root)).mark.unread_count).toBe(0);

    // Dan stops following: Ana's next reply tells him nothing and counts nothing for him.
    expect((await follow(dan, DM, root, false)).status).toBe(202);
    const stream = openStream(t.url, { token: dan });
    await stream.waitFor((f) => f.event === "hello");
    await send(ana, DM, "Sea has better food", root);
    await stream.waitFor((f) => f.event === "thread.append" && f.data.root_message_id === root);
    await stream.waitFor(
      (f) =>
        f.event === "timeline.update" &&
        f.data.item.message.message_id === root &&
        f.data.item.thread?.reply_count === 2,
    );
    expect(stream.frames.some((f) => f.event === "notification")).toBe(false);
    expect(stream.frames.some((f) => f.event === "thread.update")).toBe(false);
    expect((await thread(dan, DM, root)).mark).toEqual({ root_message_id: root, following: false, unread_count: 0 });
    expect((await marks(dan, DM)).some((m) => m.root_message_id === root)).toBe(false);

    // He follows again: live to himself, starting with nothing unread; the next reply counts.
    expect((await follow(dan, DM, root, true)).status).toBe(202);
    const on = await stream.waitFor(
      (f) => f.event === "thread.update" && f.data.root_message_id === root && f.data.following,
    );
    expect(on.data.unread_count).toBe(0);
    await send(ana, DM, "Or a lake", root);
    const counted = await stream.waitFor(
      (f) => f.event === "thread.update" && f.data.root_message_id === root && f.data.unread_count === 1,
    );
    expect(counted.data.following).toBe(true);
    stream.close();

    // Unfollowing, then replying, follows again (replying is following).
    expect((await follow(dan, DM, root, false)).status).toBe(202);
    await send(dan, DM, "Lake works", root);
    expect((await thread(dan, DM, root)).mark).toEqual({ root_message_id: root, following: true, unread_count: 0 });
    // Ana's follow state is her own, untouched by Dan's choices; her own replies count as read.
    view = await thread(ana, DM, root);
    expect(view.mark).toEqual({ root_message_id: root, following: true, unread_count: 1 });
  });

  it("refuses a read mark past the workspace's head", async () => {
    const root = await send(dan, DM, "Marker check");
    const r = await read(dan, DM, root, "seq:99999999");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("NOT_FOUND");
  });
});

describe("after a restart", () => {
  it("threads, counts and every follow state are the same (projections rebuilt from the ledger)", async () => {
    const root = await send(dan, DM, "Restart me");
    const gone = await send(ana, DM, "First", root);
    await send(ana, DM, "Second", root);
    const del = await fetch(`${t.url}/v1/conversations/${DM}/messages/${gone}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ana}`, "idempotency-key": "k-del-reply" },
    });
    expect(del.status).toBe(202);
    const view = await thread(dan, DM, root);
    expect(view.root.thread.reply_count).toBe(1);
    expect(view.replies.map((r: any) => (r.deleted ? "(deleted)" : r.message.body_text))).toEqual([
      "(deleted)",
      "Second",
    ]);
    expect(view.mark.unread_count).toBe(1);

    const before = {
      dan: await thread(dan, DM, root),
      ana: await thread(ana, DM, root),
      danMarks: await marks(dan, DM),
      anaMarks: await marks(ana, DM),
      tl: await timeline(ana, DM),
    };
    await t.close();
    t = await startTestServer({ clock, keep: true, dataDir: t.dataDir });
    const after = {
      dan: await thread(dan, DM, root),
      ana: await thread(ana, DM, root),
      danMarks: await marks(dan, DM),
      anaMarks: await marks(ana, DM),
      tl: await timeline(ana, DM),
    };
    expect({ ...after, dan: { ...after.dan, cursor: "" }, ana: { ...after.ana, cursor: "" } }).toEqual({
      ...before,
      dan: { ...before.dan, cursor: "" },
      ana: { ...before.ana, cursor: "" },
    });
  });
});
