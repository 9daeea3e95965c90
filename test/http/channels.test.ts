import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Public channels through the real server: one is created public (a private group stays
 * invite-only), everyone of the workspace browses them (name, member count, whether they are in
 * it) and joins one themself — once, never a private one — and leaves. Nobody reads a channel's
 * messages, finds them in search or is notified of them before joining. The browse list, the
 * stream and a restart agree.
 */
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let dan: string;
let ana: string;
const DAN = "ent_human_dan";
const ANA = "ent_human_ana";

beforeAll(async () => {
  t = await startTestServer({ clock, keep: true });
  dan = t.demo.humans.find((h) => h.entity_id === DAN)!.token;
  ana = t.demo.humans.find((h) => h.entity_id === ANA)!.token;
});
afterAll(async () => {
  const { rmSync } = await import("node:fs");
  await t.close();
  rmSync(t.dataDir, { recursive: true, force: true });
});

let n = 0;
const create = (token: string, body: Record<string, unknown>) =>
  postJson(`${t.url}/v1/conversations`, token, body, `k-ch-create-${++n}`);
const join = (token: string, cid: string, key = `k-ch-join-${++n}`) =>
  fetch(`${t.url}/v1/conversations/${cid}/join`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "idempotency-key": key },
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const leave = (token: string, cid: string, who: string) =>
  fetch(`${t.url}/v1/conversations/${cid}/members/${who}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${token}`, "idempotency-key": `k-ch-leave-${++n}` },
  });
const channels = async (token: string) => (await getJson(`${t.url}/v1/channels`, token)).body.channels as any[];
const send = async (token: string, cid: string, body_text: string) => {
  const r = await postJson(`${t.url}/v1/conversations/${cid}/messages`, token, { kind: "text", body_text });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.message_id as string;
};
async function newChannel(title: string): Promise<string> {
  const r = await create(dan, { title, participants: [{ entity_id: DAN }], visibility: "public" });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.conversation_id;
}

describe("creating a public channel", () => {
  it("lists it for everyone of the workspace with its member count, and whether each is in it", async () => {
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    const cid = await newChannel("launch-planning");
    // Ana is not in it, yet her Browse channels view learns of it live.
    const frame = await stream.waitFor((f) => f.event === "channel.update" && f.data.channel.conversation_id === cid);
    expect(frame.data.channel).toMatchObject({ title: "launch-planning", member_count: 1 });
    stream.close();
    expect((await channels(ana)).find((c) => c.conversation_id === cid)).toMatchObject({
      title: "launch-planning",
      member_count: 1,
      joined: false,
    });
    expect((await channels(dan)).find((c) => c.conversation_id === cid)).toMatchObject({ joined: true });
    const mine = (await getJson(`${t.url}/v1/conversations`, dan)).body.items.find(
      (c: any) => c.conversation_id === cid,
    );
    expect(mine).toMatchObject({ kind: "group", visibility: "public" });
  });

  it("keeps a private group out of the list, and refuses to join it as if it did not exist", async () => {
    const r = await create(dan, { title: "board", participants: [{ entity_id: DAN }] });
    expect(r.status).toBe(202);
    const cid = r.body.conversation_id;
    expect((await channels(ana)).some((c) => c.conversation_id === cid)).toBe(false);
    const j = await join(ana, cid);
    expect(j.status).toBe(404);
    expect(j.body.error).toMatchObject({ code: "NOT_FOUND" });
    // The direct chat between Dan and Ana is not joinable either.
    expect((await join(dan, "cnv_9f2a")).status).toBe(404);
  });

  it("refuses a public channel without a name, and a visibility it does not know", async () => {
    const noName = await create(dan, { participants: [{ entity_id: ANA }], visibility: "public" });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "title" } });
    const odd = await create(dan, { title: "x", participants: [{ entity_id: ANA }], visibility: "secret" });
    expect(odd.status).toBe(400);
    expect(odd.body.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("joining", () => {
  it("makes me a member: I read its history, get it live, and cannot join twice", async () => {
    const cid = await newChannel("design");
    const before = await send(dan, cid, "Mockups for the landing page are in");
    // Before joining: no reading, no writing, no search hit.
    expect((await getJson(`${t.url}/v1/conversations/${cid}/timeline`, ana)).status).toBe(404);
    const write = await postJson(`${t.url}/v1/conversations/${cid}/messages`, ana, { kind: "text", body_text: "hi" });
    expect(write.status).toBe(404);
    const hits = async (token: string) =>
      (await getJson(`${t.url}/v1/search?q=${encodeURIComponent("landing page")}`, token)).body.items as any[];
    expect((await hits(ana)).some((h) => h.conversation_id === cid)).toBe(false);

    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    const j = await join(ana, cid, "k-ch-join-design");
    expect(j.status, JSON.stringify(j.body)).toBe(202);
    // The same key answers the same response (idempotent), and a second join is refused.
    expect((await join(ana, cid, "k-ch-join-design")).status).toBe(202);
    const again = await join(ana, cid);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");

    const row = await stream.waitFor(
      (f) =>
        f.event === "conversation.update" && f.data.conversation.conversation_id === cid && !!f.data.conversation.title,
    );
    expect(row.data.conversation.participant_entity_ids).toEqual([DAN, ANA]);
    const counted = await stream.waitFor(
      (f) =>
        f.event === "channel.update" && f.data.channel.conversation_id === cid && f.data.channel.member_count === 2,
    );
    expect(counted.data.channel.title).toBe("design");
    const tl = (await getJson(`${t.url}/v1/conversations/${cid}/timeline`, ana)).body.items as any[];
    expect(tl.map((i) => i.message.body_text)).toEqual(["Mockups for the landing page are in", "Ana joined"]);
    expect(tl[0].message.message_id).toBe(before);
    expect((await hits(ana)).some((h) => h.conversation_id === cid)).toBe(true);
    const live = await send(dan, cid, "Welcome, Ana");
    await stream.waitFor((f) => f.event === "timeline.append" && f.data.item.message.message_id === live);
    stream.close();
    expect((await channels(ana)).find((c) => c.conversation_id === cid)).toMatchObject({
      member_count: 2,
      joined: true,
    });

    // The ledger holds the join, by Ana herself.
    const page = (
      await getJson(`${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&conversation_id=${cid}&limit=100`, ana)
    ).body;
    const joined = page.events.filter((e: any) => e.event_type === "conversation.joined");
    expect(joined).toHaveLength(1);
    expect(joined[0]).toMatchObject({ actor: { entity_id: ANA }, payload: { entity_id: ANA } });
  });

  it("sends no frame of a channel's messages to someone who has not joined it", async () => {
    const cid = await newChannel("quiet-room");
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    const secret = await send(dan, cid, "Only for those inside");
    // Dan's own stream gets it; by then Ana's would have too, had it been sent to her.
    const danStream = openStream(t.url, { token: dan });
    await danStream.waitFor((f) => f.event === "hello");
    const marker = await send(dan, "cnv_dan_ana", "marker after the channel message");
    await stream.waitFor((f) => f.event === "timeline.append" && f.data.item.message.message_id === marker);
    expect(stream.frames.some((f) => JSON.stringify(f.data).includes(secret))).toBe(false);
    expect(stream.frames.some((f) => f.event === "notification" && f.data.conversation_id === cid)).toBe(false);
    stream.close();
    danStream.close();
  });

  it("leaving takes me out: the channel is still listed, I am not in it, and I can join again", async () => {
    const cid = await newChannel("random");
    expect((await join(ana, cid)).status).toBe(202);
    expect((await leave(ana, cid, ANA)).status).toBe(202);
    expect((await channels(ana)).find((c) => c.conversation_id === cid)).toMatchObject({
      member_count: 1,
      joined: false,
    });
    expect((await getJson(`${t.url}/v1/conversations/${cid}/timeline`, ana)).status).toBe(404);
    expect((await join(ana, cid)).status).toBe(202);
  });

  it("answers 404 for an unknown channel and 400 for an id too long, in the standard error shape", async () => {
    const unknown = await join(ana, "cnv_nope");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "NOT_FOUND" });
    const bad = await join(ana, "c".repeat(129));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("refuses a join the policy pack does not allow, whoever writes it to the ledger", async () => {
    const priv = (await create(ana, { title: "private-ledger", participants: [{ entity_id: ANA }] })).body
      .conversation_id;
    const pub = await newChannel("ledger-checked");
    // Dan is an admin: the generic append lets him write into any conversation, so the pack alone decides.
    const append = (token: string, conversation_id: string, actor: string, entity_id: string) =>
      postJson(`${t.url}/v1/ledger/append`, token, {
        tenant_id: t.demo.tenant_id,
        events: [
          {
            event_id: `evt_join_${++n}`,
            event_type: "conversation.joined",
            ts: new Date(clock.now()).toISOString(),
            tenant_id: t.demo.tenant_id,
            trace_id: "trc_join",
            conversation_id,
            actor: { entity_id: actor, actor_type: "human" },
            payload: { entity_id },
          },
        ],
      });
    const refused = async (r: { status: number; body: any }) => {
      expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
      return r.body.error.code as string;
    };
    // A private group; someone else in their name; a channel Dan is already in.
    expect(await refused(await append(dan, priv, DAN, DAN))).toBe("UNAUTHORIZED_ACTION");
    expect(await refused(await append(dan, pub, DAN, ANA))).toBe("UNAUTHORIZED_ACTION");
    expect(await refused(await append(dan, pub, DAN, DAN))).toBe("UNAUTHORIZED_ACTION");
    // Ana is not in the channel: the generic append is, like every write, only into her own conversations.
    expect((await append(ana, pub, ANA, ANA)).status).toBe(404);
    expect((await channels(ana)).find((c) => c.conversation_id === pub)).toMatchObject({ joined: false });
  });
});

describe("after a restart", () => {
  it("lists the same channels, members and joins (projections rebuilt from the ledger)", async () => {
    const cid = await newChannel("restart-room");
    expect((await join(ana, cid)).status).toBe(202);
    await send(ana, cid, "still here?");
    const before = { ana: await channels(ana), dan: await channels(dan) };
    const tlBefore = (await getJson(`${t.url}/v1/conversations/${cid}/timeline`, ana)).body.items;
    await t.close();
    t = await startTestServer({ clock, keep: true, dataDir: t.dataDir });
    expect({ ana: await channels(ana), dan: await channels(dan) }).toEqual(before);
    expect((await getJson(`${t.url}/v1/conversations/${cid}/timeline`, ana)).body.items).toEqual(tlBefore);
    expect((await join(ana, cid)).status).toBe(409);
  });
});
