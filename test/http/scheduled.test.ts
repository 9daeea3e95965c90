import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../contracts/facts.js";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Send later and Remind me through the real server, on a clock the test moves: a scheduled
 * message is sent once when it falls due (not a minute before), as its author, live; a time
 * without an offset is read in the person's own zone; one that fell due while the server was
 * down is sent at boot, once, and never again after another restart; cancel and edit work on
 * waiting ones only, and only on one's own; bad times and texts get the standard error shape.
 * A reminder is posted to the person's own Reminders conversation and tells them alone.
 */
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let dan: string;
let ana: string;
const DM = "cnv_dan_ana";
const MIN = 60_000;

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

let n = 0;
const at = (msFromNow: number) => new Date(clock.now() + msFromNow).toISOString();
const schedule = (token: string, cid: string, body: Record<string, unknown>) =>
  postJson(`${t.url}/v1/conversations/${cid}/scheduled`, token, body, `k-sch-${++n}`);
const call = async (method: string, path: string, token: string, body?: unknown) => {
  const r = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "idempotency-key": `k-sch-call-${++n}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as any };
};
const mine = async (token: string) => (await getJson(`${t.url}/v1/scheduled`, token)).body.items as any[];
const texts = async (token: string, cid: string) =>
  ((await getJson(`${t.url}/v1/conversations/${cid}/timeline?limit=1000`, token)).body.items as any[]).map(
    (i) => i.message.body_text,
  );
const count = (list: string[], text: string) => list.filter((x) => x === text).length;

describe("a scheduled message", () => {
  it("is sent once when it falls due, as its author, live — not before", async () => {
    const r = await schedule(dan, DM, { body_text: "Standup moved to 10:30", send_at: at(60 * MIN) });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ kind: "message", status: "pending", conversation_id: DM, send_at: at(60 * MIN) });
    expect((await mine(dan)).map((x) => x.schedule_id)).toContain(r.body.schedule_id);
    // Nobody else sees it.
    expect((await mine(ana)).some((x) => x.schedule_id === r.body.schedule_id)).toBe(false);

    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    await clock.advance(59 * MIN);
    expect(count(await texts(ana, DM), "Standup moved to 10:30")).toBe(0);
    await clock.advance(2 * MIN);
    const frame = await stream.waitFor(
      (f) => f.event === "timeline.append" && f.data.item.message.message_id === r.body.message_id,
    );
    expect(frame.data.item.sender.entity_id).toBe("ent_human_dan");
    expect(frame.data.item.message.body_text).toBe("Standup moved to 10:30");
    stream.close();
    await clock.advance(10 * MIN);
    expect(count(await texts(ana, DM), "Standup moved to 10:30")).toBe(1);
    expect((await mine(dan)).find((x) => x.schedule_id === r.body.schedule_id)).toMatchObject({
      status: "sent",
      sent_conversation_id: DM,
    });
  });

  it("counts in_minutes from the server's own now", async () => {
    const r = await schedule(dan, DM, { body_text: "In half an hour", in_minutes: 30 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.send_at).toBe(at(30 * MIN));
    expect((await call("DELETE", `/v1/scheduled/${r.body.schedule_id}`, dan)).status).toBe(200);
  });

  it("reads a time without an offset in the person's own zone", async () => {
    expect((await call("PUT", "/v1/me/profile", dan, { time_zone: "America/Sao_Paulo" })).status).toBe(200);
    // Tomorrow 09:00 in São Paulo (UTC−3) is 12:00 UTC.
    const tomorrow = new Date(clock.now() + 86_400_000).toISOString().slice(0, 10);
    const r = await schedule(dan, DM, { body_text: "Good morning", send_at: `${tomorrow}T09:00` });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ send_at: `${tomorrow}T12:00:00.000Z`, time_zone: "America/Sao_Paulo" });
    expect((await call("DELETE", `/v1/scheduled/${r.body.schedule_id}`, dan)).status).toBe(200);
  });

  it("is cancelled or edited while it waits, by its author only", async () => {
    const r = await schedule(dan, DM, { body_text: "Draft one", send_at: at(30 * MIN) });
    const id = r.body.schedule_id;
    // Someone else's schedule is not found, whatever they try.
    expect((await call("PATCH", `/v1/scheduled/${id}`, ana, { body_text: "hijacked" })).status).toBe(404);
    const theirs = await call("DELETE", `/v1/scheduled/${id}`, ana);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("NOT_FOUND");

    const edited = await call("PATCH", `/v1/scheduled/${id}`, dan, { body_text: "Draft two", send_at: at(40 * MIN) });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ body_text: "Draft two", send_at: at(40 * MIN), status: "pending" });
    const other = await schedule(dan, DM, { body_text: "Never sent", send_at: at(35 * MIN) });
    expect((await call("DELETE", `/v1/scheduled/${other.body.schedule_id}`, dan)).body.status).toBe("cancelled");

    await clock.advance(45 * MIN);
    const list = await texts(ana, DM);
    expect(count(list, "Draft two")).toBe(1);
    expect(count(list, "Draft one")).toBe(0);
    expect(count(list, "Never sent")).toBe(0);
    // Sent or cancelled: nothing more to change.
    expect((await call("PATCH", `/v1/scheduled/${id}`, dan, { body_text: "late" })).status).toBe(409);
    expect((await call("DELETE", `/v1/scheduled/${other.body.schedule_id}`, dan)).status).toBe(409);
  });

  it("refuses past times, times too far ahead, texts too long, and conversations I am not in", async () => {
    const bad = async (cid: string, body: Record<string, unknown>, status = 400) => {
      const r = await schedule(dan, cid, body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      return r.body.error;
    };
    expect(await bad(DM, { body_text: "x", send_at: at(-MIN) })).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "send_at" },
    });
    expect(await bad(DM, { body_text: "x", send_at: at((LIMITS.scheduleDays + 1) * 86_400_000) })).toMatchObject({
      details: { field: "send_at" },
    });
    expect(await bad(DM, { body_text: "x", send_at: "next tuesday-ish" })).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await bad(DM, { body_text: "x", send_at: "2026-02-30T09:00" })).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await bad(DM, { body_text: "x".repeat(LIMITS.messageChars + 1), send_at: at(MIN) })).toMatchObject({
      code: "VALIDATION_ERROR",
    });
    expect(await bad(DM, { body_text: "   ", send_at: at(MIN) })).toMatchObject({ details: { field: "body_text" } });
    expect(await bad(DM, { body_text: "x", send_at: at(MIN), in_minutes: 5 })).toMatchObject({
      code: "VALIDATION_ERROR",
    });
    expect(await bad(DM, { body_text: "x" })).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await bad(DM, { body_text: "x", in_minutes: 0 })).toMatchObject({ code: "VALIDATION_ERROR" });
    // Ana is not in Dan's chat with the agent: it does not exist for her.
    const r = await schedule(ana, "cnv_9f2a", { body_text: "hi", send_at: at(MIN) });
    expect(r.status).toBe(404);
  });
});

describe("across a restart", () => {
  it("sends at boot what fell due while the server was down, once, and never again", async () => {
    const r = await schedule(dan, DM, { body_text: "Sent while you slept", send_at: at(30 * MIN) });
    expect(r.status).toBe(201);
    const later = await schedule(dan, DM, { body_text: "Still to come", send_at: at(3 * 60 * MIN) });
    await t.close();
    await clock.advance(60 * MIN);
    t = await startTestServer({ clock, keep: true, dataDir: t.dataDir });
    await clock.advance(1);
    const sent = async () => count(await texts(ana, DM), "Sent while you slept");
    for (let i = 0; i < 50 && (await sent()) === 0; i++) await new Promise((res) => setTimeout(res, 20));
    expect(await sent()).toBe(1);
    expect(count(await texts(ana, DM), "Still to come")).toBe(0);

    await t.close();
    t = await startTestServer({ clock, keep: true, dataDir: t.dataDir });
    await clock.advance(1);
    expect(await sent()).toBe(1);
    const list = await mine(dan);
    expect(list.find((x) => x.schedule_id === r.body.schedule_id)?.status).toBe("sent");
    expect(list.find((x) => x.schedule_id === later.body.schedule_id)?.status).toBe("pending");
    await clock.advance(3 * 60 * MIN);
    expect(count(await texts(ana, DM), "Still to come")).toBe(1);
  });
});

describe("Remind me about this", () => {
  it("posts a reminder to my own Reminders conversation at that time, and tells me alone", async () => {
    const msg = await postJson(`${t.url}/v1/conversations/${DM}/messages`, ana, {
      kind: "text",
      body_text: "Please review the Q3 budget",
    });
    const r = await postJson(
      `${t.url}/v1/conversations/${DM}/messages/${msg.body.message_id}/remind`,
      dan,
      { send_at: at(20 * MIN) },
      `k-remind-${++n}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ kind: "reminder", about_message_id: msg.body.message_id, status: "pending" });
    const danStream = openStream(t.url, { token: dan });
    const anaStream = openStream(t.url, { token: ana });
    await danStream.waitFor((f) => f.event === "hello");
    await anaStream.waitFor((f) => f.event === "hello");
    await clock.advance(21 * MIN);
    const told = await danStream.waitFor((f) => f.event === "notification");
    expect(told.data.notification.body).toContain("Please review the Q3 budget");
    const home = (await mine(dan)).find((x) => x.schedule_id === r.body.schedule_id);
    expect(home).toMatchObject({ status: "sent", sent_conversation_id: "cnv_reminders_ent_human_dan" });
    const reminders = await texts(dan, home.sent_conversation_id);
    expect(reminders).toEqual(["⏰ Reminder — in Ana: “Please review the Q3 budget”"]);
    // Ana is not in it and is told nothing.
    expect((await getJson(`${t.url}/v1/conversations/${home.sent_conversation_id}/timeline`, ana)).status).toBe(404);
    expect(anaStream.frames.some((f) => JSON.stringify(f.data).includes(r.body.message_id))).toBe(false);
    danStream.close();
    anaStream.close();
  });

  it("says nothing of a message deleted before the reminder falls due", async () => {
    const msg = await postJson(`${t.url}/v1/conversations/${DM}/messages`, ana, { kind: "text", body_text: "oops" });
    const r = await postJson(
      `${t.url}/v1/conversations/${DM}/messages/${msg.body.message_id}/remind`,
      dan,
      { send_at: at(60 * MIN) },
      `k-remind-${++n}`,
    );
    expect((await call("DELETE", `/v1/conversations/${DM}/messages/${msg.body.message_id}`, ana)).status).toBe(202);
    await clock.advance(61 * MIN);
    const row = (await mine(dan)).find((x) => x.schedule_id === r.body.schedule_id);
    expect(row).toMatchObject({ status: "failed", failure: "The message was deleted" });
    expect((await texts(dan, "cnv_reminders_ent_human_dan")).some((x) => x.includes("oops"))).toBe(false);
  });
});
