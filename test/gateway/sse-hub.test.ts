import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSseHub, type SseHub } from "../../src/gateway/stream/sse-hub.js";
import { createManualClock } from "../../src/shared/clock.js";

/**
 * The hub over a real HTTP server on loopback: frames reach each viewer as its audience allows,
 * a reader that falls behind gets everything in order once it reads again, and one that stops
 * reading is cut once too much is held for it.
 */
let hub: SseHub | undefined;
let server: http.Server | undefined;
const sockets: http.ClientRequest[] = [];
afterEach(async () => {
  for (const r of sockets.splice(0)) r.destroy();
  hub?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  hub = undefined;
  server = undefined;
});

/** The highest seq published so far: a stream that opens starts there. */
let head = 0;

/** Each stream's count of writes to its response after the opening one, by viewer. */
const writes = new Map<string, number>();
/** What the hub is told about a group commit about to run. */
let commitPending = () => false;

async function start(): Promise<string> {
  hub = createSseHub({ clock: createManualClock(), commitPending: () => commitPending() });
  head = 0;
  writes.clear();
  commitPending = () => false;
  server = http.createServer((req, res) => {
    const as = new URL(req.url!, "http://x").searchParams.get("as")!;
    const write = res.write.bind(res) as (chunk: unknown) => boolean;
    let opened = false;
    res.write = ((chunk: unknown) => {
      if (opened) writes.set(as, (writes.get(as) ?? 0) + 1);
      opened = true;
      return write(chunk);
    }) as typeof res.write;
    const entityId = new URL(req.url!, "http://x").searchParams.get("as")!;
    const last = req.headers["last-event-id"];
    const cursor = typeof last === "string" ? Number(last.slice("seq:".length)) : null;
    hub!.attach({ tenantId: "t", entityId, res, head, cursor, hello: { entity_id: entityId }, extra: "" });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Opens a stream; `paused` leaves it unread until `resume()`; `lastEventId` resumes after it. */
function connect(url: string, as: string, paused = false, lastEventId?: string) {
  let text = "";
  let closed = false;
  let res: http.IncomingMessage | undefined;
  const opened = new Promise<void>((resolve) => {
    const headers = lastEventId ? { "last-event-id": lastEventId } : {};
    const req = http.get(`${url}/?as=${as}`, { headers }, (r) => {
      res = r;
      r.setEncoding("utf8");
      r.on("data", (d: string) => (text += d));
      r.on("close", () => (closed = true));
      if (paused) r.pause();
      resolve();
    });
    req.on("error", () => (closed = true));
    sockets.push(req);
  });
  return {
    opened,
    text: () => text,
    closed: () => closed,
    resume: () => res!.resume(),
    /** The seq ids of the frames after hello (whose id is the head, 0 here). */
    ids: () => [...text.matchAll(/^id: seq:(\d+)$/gm)].map((m) => Number(m[1])).slice(1),
  };
}

const until = async (cond: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
};
const turn = () => new Promise((r) => setImmediate(r));

describe("SSE hub", () => {
  it("each viewer gets the frames of its audience; viewers who see the same get the same bytes", async () => {
    const url = await start();
    const [ana, ana2, ben, cem] = [connect(url, "ana"), connect(url, "ana"), connect(url, "ben"), connect(url, "cem")];
    await Promise.all([ana.opened, ana2.opened, ben.opened, cem.opened]);
    await until(() => hub!.clientCount() === 4);
    hub!.publish("t", {
      seq: 1,
      frames: [
        { event: "timeline.append", json: '{"n":"everyone"}' },
        { event: "notification", json: '{"n":"ana and ben"}', audience: new Set(["ana", "ben"]) },
        { event: "notification", json: '{"n":"cem only"}', audience: new Set(["cem"]) },
      ],
    });
    await until(() => [ana, ana2, ben, cem].every((c) => c.ids().includes(1)));
    const frames = (c: ReturnType<typeof connect>) =>
      c.text().slice(c.text().indexOf("\n\n", c.text().indexOf("event: hello")) + 2);
    expect(frames(ana)).toBe(
      'event: timeline.append\ndata: {"n":"everyone"}\n\nid: seq:1\nevent: notification\ndata: {"n":"ana and ben"}\n\n',
    );
    expect(frames(ana2)).toBe(frames(ana));
    expect(frames(ben)).toBe(frames(ana));
    expect(frames(cem)).toBe(
      'event: timeline.append\ndata: {"n":"everyone"}\n\nid: seq:1\nevent: notification\ndata: {"n":"cem only"}\n\n',
    );
  });

  it("a reader that falls behind gets every frame, in order, once it reads again; one that never reads is cut", async () => {
    const url = await start();
    const slow = connect(url, "ana", true);
    const stuck = connect(url, "ana", true);
    await Promise.all([slow.opened, stuck.opened]);
    await until(() => hub!.clientCount() === 2);
    // ≈ 3 MiB for the slow reader (under the 4 MiB a connection may hold), published over many turns
    const body = JSON.stringify({ text: "x".repeat(8 * 1024) });
    for (let seq = 1; seq <= 360; seq++) {
      hub!.publish("t", { seq, frames: [{ event: "timeline.append", json: body }] });
      if (seq % 10 === 0) await turn();
    }
    await turn();
    slow.resume();
    await until(() => slow.ids().length === 360);
    expect(slow.ids()).toEqual(Array.from({ length: 360 }, (_, i) => i + 1));
    expect(slow.closed()).toBe(false);
    // the one that never reads: past 4 MiB held for it (beyond what the kernel buffers), its
    // stream is cut (it resumes by cursor)
    for (let seq = 361; seq <= 3000; seq++) {
      hub!.publish("t", { seq, frames: [{ event: "timeline.append", json: body }] });
      if (seq % 10 === 0) await turn();
    }
    await until(() => hub!.clientCount() === 1);
    await until(() => slow.ids().length === 3000);
    expect(slow.ids().at(-1)).toBe(3000);
    expect(slow.closed()).toBe(false);
  });

  it("a reader cut for falling behind is told to reconnect, and resumes by Last-Event-ID without a gap or a repeat", async () => {
    const url = await start();
    const stuck = connect(url, "ana", true);
    await stuck.opened;
    await until(() => hub!.clientCount() === 1);
    const body = JSON.stringify({ text: "y".repeat(8 * 1024) });
    const publish = () => hub!.publish("t", { seq: ++head, frames: [{ event: "timeline.append", json: body }] });
    // the socket stops being read: publish until the hub gives up on it
    while (hub!.clientCount() === 1) {
      if (head > 20_000) throw new Error("a reader that never reads was never cut");
      for (let i = 0; i < 10; i++) publish();
      await turn();
    }
    const cutAt = head;
    // more frames after the cut, which the cut stream cannot carry
    for (let i = 0; i < 25; i++) publish();
    stuck.resume();
    await until(() => stuck.closed());
    // what it had been given reads as whole frames, in order, then the retry hint and the end
    expect(stuck.text().endsWith("retry: 1000\n\n")).toBe(true);
    const first = stuck.ids();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThanOrEqual(cutAt);
    expect(first).toEqual(Array.from({ length: first.length }, (_, i) => i + 1));
    const again = connect(url, "ana", false, `seq:${first.at(-1)}`);
    await until(() => again.ids().at(-1) === head);
    expect([...first, ...again.ids()]).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(again.closed()).toBe(false);
  });

  it("waits one turn for a commit about to run, so both commits reach a connection in one write", async () => {
    const url = await start();
    const ana = connect(url, "ana");
    await ana.opened;
    await until(() => hub!.clientCount() === 1);
    const frame = (seq: number) => ({ seq, frames: [{ event: "timeline.append", json: `{"n":${seq}}` }] });
    // A commit set off by the first (as an agent's answer to a message) is queued in the same
    // turn and commits in the next: the hub holds its flush for it.
    let queued = false;
    commitPending = () => queued;
    hub!.publish("t", frame(1));
    queued = true;
    setImmediate(() => {
      queued = false;
      hub!.publish("t", frame(2));
    });
    await until(() => ana.ids().length === 2);
    expect(ana.ids()).toEqual([1, 2]);
    expect(writes.get("ana")).toBe(1);
    // with nothing queued, each turn's frames go at once: two turns, two writes
    hub!.publish("t", frame(3));
    setImmediate(() => setImmediate(() => hub!.publish("t", frame(4))));
    await until(() => ana.ids().length === 4);
    expect(writes.get("ana")).toBe(3);
    // a ledger that always has more queued (a flood) holds each flush one turn only, not forever
    commitPending = () => true;
    for (let seq = 5; seq <= 8; seq++) {
      hub!.publish("t", frame(seq));
      await turn();
      await turn();
      await turn();
    }
    await until(() => ana.ids().length === 8);
    expect(ana.ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(writes.get("ana")).toBe(7);
  });
});
