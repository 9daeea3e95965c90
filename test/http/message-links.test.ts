import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * A link to a message, forwarding and pinning through the real server: only members read a
 * message or its pins (anyone else gets the same NOT_FOUND, never the text), a forward is one
 * ledger event pointing at its original, pins reach members live, and both survive a restart
 * (projections rebuilt from the ledger).
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

const msgPath = (cid: string, mid: string) => `/v1/conversations/${cid}/messages/${mid}`;
const forward = (token: string, cid: string, mid: string, to: string) =>
  postJson(`${t.url}${msgPath(cid, mid)}/forward`, token, { to_conversation_id: to });
const pin = (token: string, cid: string, mid: string, on = true) =>
  postJson(`${t.url}${msgPath(cid, mid)}/pin`, token, { on });
const pins = async (token: string, cid: string) =>
  (await getJson(`${t.url}/v1/conversations/${cid}/pins`, token)).body.items.map(
    (i: any) => i.message.body_text,
  ) as string[];

async function send(token: string, cid: string, body_text: string) {
  const r = await postJson(`${t.url}/v1/conversations/${cid}/messages`, token, { kind: "text", body_text });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.message_id as string;
}
const timeline = async (token: string, cid: string) =>
  (await getJson(`${t.url}/v1/conversations/${cid}/timeline?limit=1000`, token)).body.items as any[];

describe("a link to a message", () => {
  it("opens for a member and is the same NOT_FOUND, without the text, for anyone else or once deleted", async () => {
    const mid = await send(dan, AGENT_CHAT, "Budget draft: 4200 for the fair");
    const mine = await getJson(`${t.url}${msgPath(AGENT_CHAT, mid)}`, dan);
    expect(mine.status).toBe(200);
    expect(mine.body.item.message.body_text).toBe("Budget draft: 4200 for the fair");
    expect(mine.body.item.cursor).toMatch(/^seq:\d+$/);

    const outsider = await getJson(`${t.url}${msgPath(AGENT_CHAT, mid)}`, ana);
    expect(outsider.status).toBe(404);
    expect(outsider.body.error.code).toBe("NOT_FOUND");
    expect(JSON.stringify(outsider.body)).not.toContain("4200");
    // Naming her own chat with a message of another one is no way in either.
    const sideways = await getJson(`${t.url}${msgPath(DM, mid)}`, ana);
    expect(sideways.status).toBe(404);
    expect(JSON.stringify(sideways.body)).not.toContain("4200");

    const gone = await send(dan, DM, "Soon deleted");
    expect((await getJson(`${t.url}${msgPath(DM, gone)}`, ana)).body.item.message.body_text).toBe("Soon deleted");
    const del = await fetch(`${t.url}${msgPath(DM, gone)}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "k-del-gone" },
    });
    expect(del.status).toBe(202);
    expect((await getJson(`${t.url}${msgPath(DM, gone)}`, ana)).status).toBe(404);
  });
});

describe("forwarding", () => {
  it("copies a text into another chat of the sender, marked with its author, and records the original in the ledger", async () => {
    const mid = await send(dan, AGENT_CHAT, "Venue confirmed for the 12th");
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    const r = await forward(dan, AGENT_CHAT, mid, DM);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const copy = r.body.message_id as string;
    const frame = await stream.waitFor((f) => f.event === "timeline.append" && f.data.item.message.message_id === copy);
    expect(frame.data.item.forwarded).toEqual({ author_name: "Dan" });
    expect(frame.data.item.message.body_text).toBe("Venue confirmed for the 12th");
    stream.close();
    // The stream and a reload say the same thing.
    expect((await timeline(ana, DM)).find((i) => i.message.message_id === copy)).toEqual(frame.data.item);

    const q = await getJson(
      `${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&conversation_id=${DM}&event_type=message.sent&limit=1000`,
      dan,
    );
    const ev = q.body.events.find((e: any) => e.payload.message_id === copy);
    expect(ev.payload.forwarded_from).toEqual({
      conversation_id: AGENT_CHAT,
      message_id: mid,
      author_entity_id: "ent_human_dan",
    });
  });

  it("refuses what the sender cannot read, a chat they are not in, and anything but text", async () => {
    const secret = await send(dan, AGENT_CHAT, "Salary review notes");
    const fromOutside = await forward(ana, AGENT_CHAT, secret, DM);
    expect(fromOutside.status).toBe(404);
    expect(JSON.stringify(fromOutside.body)).not.toContain("Salary");
    const mid = await send(ana, DM, "Hi Dan");
    const intoOutside = await forward(ana, DM, mid, AGENT_CHAT);
    expect(intoOutside.status).toBe(404);
    expect(intoOutside.body.error.code).toBe("NOT_FOUND");
    const bad = await postJson(`${t.url}${msgPath(DM, mid)}/forward`, ana, { to: DM });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    // A file stays in its own conversation: only text is forwarded.
    const form = new FormData();
    form.append("file", new Blob(["minutes"], { type: "text/plain" }), "minutes.txt");
    const up = await fetch(`${t.url}/v1/conversations/${DM}/attachments`, {
      method: "POST",
      headers: { authorization: `Bearer ${ana}`, "idempotency-key": "k-up-minutes" },
      body: form,
    });
    expect(up.status).toBe(202);
    const file = (await timeline(ana, DM)).find((i) => i.message.kind === "artifact");
    const notText = await forward(ana, DM, file.message.message_id, DM);
    expect(notText.status).toBe(400);
    expect(notText.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "message_id" } });
    expect((await timeline(dan, AGENT_CHAT)).some((i) => i.message.body_text === "Hi Dan")).toBe(false);
  });
});

describe("pinning", () => {
  it("pins and unpins for members, live to the other member, and refuses outsiders", async () => {
    const a = await send(dan, DM, "Wi-Fi password is on the fridge");
    const b = await send(ana, DM, "Team lunch every Friday");
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    expect((await pin(dan, DM, a)).status).toBe(202);
    const frame = await stream.waitFor(
      (f) => f.event === "timeline.update" && f.data.item.message.message_id === a && !!f.data.item.pinned,
    );
    expect(frame.data.item.pinned).toMatchObject({ by_entity_id: "ent_human_dan", by_name: "Dan" });
    stream.close();
    expect((await getJson(`${t.url}/v1/conversations/${DM}/pins`, ana)).body.items).toEqual([frame.data.item]);
    expect((await pin(ana, DM, b)).status).toBe(202);
    // Pinning again changes nothing: the order stays the order of pinning.
    expect((await pin(dan, DM, a)).status).toBe(202);
    expect(await pins(ana, DM)).toEqual(["Wi-Fi password is on the fridge", "Team lunch every Friday"]);
    expect((await pin(ana, DM, a, false)).status).toBe(202);
    expect(await pins(dan, DM)).toEqual(["Team lunch every Friday"]);

    const agentMsg = await send(dan, AGENT_CHAT, "Pin me");
    const outsider = await pin(ana, AGENT_CHAT, agentMsg);
    expect(outsider.status).toBe(404);
    expect((await getJson(`${t.url}/v1/conversations/${AGENT_CHAT}/pins`, ana)).status).toBe(404);
    // A message of another conversation cannot be pinned here.
    expect((await pin(dan, DM, agentMsg)).status).toBe(404);
  });

  it("holds at most 50 pins in a conversation, in the standard error shape", async () => {
    const group = await postJson(`${t.url}/v1/conversations`, dan, {
      title: "Pin board",
      participants: [{ entity_id: "ent_human_ana" }],
    });
    const cid = group.body.conversation_id as string;
    const ids: string[] = [];
    for (let i = 0; i < 51; i++) ids.push(await send(dan, cid, `note ${i}`));
    for (const id of ids.slice(0, 50)) expect((await pin(dan, cid, id)).status).toBe(202);
    const over = await pin(ana, cid, ids[50]!);
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { max: 50 } });
    // Unpinning makes room again.
    expect((await pin(ana, cid, ids[0]!, false)).status).toBe(202);
    expect((await pin(ana, cid, ids[50]!)).status).toBe(202);
    expect((await pins(dan, cid)).at(-1)).toBe("note 50");
  });

  it("a deleted message leaves the pins; pins and forwards are the same after a restart", async () => {
    const c = await send(dan, DM, "Temporary note");
    expect((await pin(dan, DM, c)).status).toBe(202);
    expect(await pins(dan, DM)).toContain("Temporary note");
    const del = await fetch(`${t.url}${msgPath(DM, c)}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "k-del-pinned" },
    });
    expect(del.status).toBe(202);
    expect(await pins(dan, DM)).not.toContain("Temporary note");

    const beforePins = await getJson(`${t.url}/v1/conversations/${DM}/pins`, ana);
    const beforeTimeline = await timeline(ana, DM);
    await t.close();
    t = await startTestServer({ clock, keep: true, dataDir: t.dataDir });
    const afterPins = await getJson(`${t.url}/v1/conversations/${DM}/pins`, ana);
    expect(afterPins.body.items).toEqual(beforePins.body.items);
    const afterTimeline = await timeline(ana, DM);
    expect(afterTimeline).toEqual(beforeTimeline);
    expect(afterTimeline.filter((i) => i.forwarded).map((i) => i.forwarded.author_name)).toEqual(["Dan"]);
  });
});
