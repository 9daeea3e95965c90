import { afterEach, describe, expect, it } from "vitest";
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import http, { type Server } from "node:http";
import { EventSource } from "eventsource";
import { createApp } from "../../src/app.js";
import { createLedgerRoutes } from "../../src/ledger/routes.js";
import { SSE_CUT_HINT } from "../../src/shared/sse-out.js";
import type { TStoredEvent } from "../../contracts/events.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "./helpers.js";

let t: TestLedger;
let server: ServerType | undefined;
const sources: EventSource[] = [];
afterEach(async () => {
  for (const s of sources.splice(0)) s.close();
  await new Promise<void>((r) => (server ? ((server as Server).closeAllConnections(), server.close(() => r())) : r()));
  server = undefined;
  t?.cleanup();
});

async function start(heartbeatMs = 15_000): Promise<string> {
  t = openTestLedger();
  const app = createApp({ routes: [createLedgerRoutes(t.ledger, { heartbeatMs })] });
  return new Promise((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

/** Collects ledger.event frames until `until` says stop. */
function collect(url: string, init: { lastEventId?: string } = {}) {
  const frames: Array<{ id: string; event: TStoredEvent }> = [];
  const es = new EventSource(url, {
    fetch: (input, reqInit) =>
      fetch(input, {
        ...reqInit,
        headers: {
          ...(reqInit?.headers as Record<string, string>),
          ...(init.lastEventId ? { "last-event-id": init.lastEventId } : {}),
        },
      }),
  });
  sources.push(es);
  es.addEventListener("ledger.event", (m) => frames.push({ id: m.lastEventId, event: JSON.parse(m.data) }));
  const waitFor = async (n: number, ms = 10_000) => {
    const end = Date.now() + ms;
    while (frames.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return frames;
  };
  return { es, frames, waitFor };
}

describe("GET /v1/ledger/stream", () => {
  it("sends the backlog after ?cursor= then live events, with nothing missed or repeated at the seam", async () => {
    const base = await start();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    for (let i = 0; i < 20; i++)
      await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `before ${i}`)] });
    await t.ledger.append({ tenant_id: "ten_b", events: setupTenant("ten_b") });

    const c = collect(`${base}/v1/ledger/stream?tenant_id=ten_a&cursor=seq:5`);
    // Appends keep committing while the client connects and reads its backlog.
    const writer = (async () => {
      for (let i = 0; i < 40; i++) {
        await t.ledger.append({
          tenant_id: "ten_a",
          events: [messageSent("ten_a", `during ${i}`), messageSent("ten_a", `during ${i}b`)],
        });
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await writer;
    const frames = await c.waitFor(22 + 80 - 5);
    const seqs = frames.map((f) => f.event.seq);
    expect(seqs).toEqual(Array.from({ length: 97 }, (_, i) => i + 6));
    expect(frames.every((f) => f.id === `seq:${f.event.seq}` && f.event.tenant_id === "ten_a")).toBe(true);
    expect(frames[0]!.event.integrity.hash).toMatch(/^blake3:[0-9a-f]{64}$/);
  });

  it("resumes from Last-Event-ID", async () => {
    const base = await start();
    await t.ledger.append({
      tenant_id: "ten_a",
      events: [...setupTenant("ten_a"), messageSent("ten_a"), messageSent("ten_a")],
    });
    const c = collect(`${base}/v1/ledger/stream?tenant_id=ten_a`, { lastEventId: "seq:3" });
    await t.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a")] });
    expect((await c.waitFor(2)).map((f) => f.id)).toEqual(["seq:4", "seq:5"]);
  });

  it("cuts a reader that stops reading once 4 MiB wait for it, with a retry hint; it resumes by Last-Event-ID without a gap", async () => {
    const base = await start();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    // A real socket whose reader stops: nothing it is sent is read until resume().
    let text = "";
    let closed = false;
    let res: http.IncomingMessage | undefined;
    const req = http.get(`${base}/v1/ledger/stream?tenant_id=ten_a&cursor=seq:2`, (r) => {
      res = r;
      r.setEncoding("utf8");
      r.on("data", (d: string) => (text += d));
      r.on("close", () => (closed = true));
      r.pause();
    });
    req.on("error", () => (closed = true));
    while (!res) await new Promise((r) => setTimeout(r, 5));
    // 16 MiB of ≈ 8 KB events, far past the bound plus what the kernel buffers on loopback
    const total = 2000;
    for (let i = 0; i < total; i += 100)
      await t.ledger.append({
        tenant_id: "ten_a",
        events: Array.from({ length: 100 }, (_, k) => messageSent("ten_a", `m${i + k}`, { size: 8000 })),
      });
    const head = t.ledger.head("ten_a").tenant_seq;
    expect(head).toBe(total + 2);
    res.resume();
    const end = Date.now() + 20_000;
    while (!closed && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
    // whole frames in order, then the hint and the end
    expect(text.endsWith(SSE_CUT_HINT)).toBe(true);
    const ids = [...text.matchAll(/^id: seq:(\d+)$/gm)].map((m) => Number(m[1]));
    const last = ids.at(-1)!;
    expect(ids).toEqual(Array.from({ length: last - 2 }, (_, i) => i + 3));
    expect(last).toBeLessThan(head);
    expect(text.split("event: ledger.event\n").length - 1).toBe(ids.length);
    // resuming from the last whole frame gets exactly the rest
    const c = collect(`${base}/v1/ledger/stream?tenant_id=ten_a`, { lastEventId: `seq:${last}` });
    const rest = await c.waitFor(head - last, 20_000);
    expect(rest.map((f) => f.event.seq)).toEqual(Array.from({ length: head - last }, (_, i) => last + 1 + i));
  }, 60_000);

  it("sends heartbeat comments", async () => {
    const base = await start(50);
    const res = await fetch(`${base}/v1/ledger/stream?tenant_id=ten_a`);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = "";
    const end = Date.now() + 5000;
    while (!text.includes(": heartbeat") && Date.now() < end)
      text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(": heartbeat\n\n");
    await reader.cancel();
  });

  it("refuses malformed cursors and a missing tenant with 400 VALIDATION_ERROR", async () => {
    const base = await start();
    for (const cursor of ["-1", "abc", "9e99", "seq:-1", "seq:01"]) {
      const res = await fetch(`${base}/v1/ledger/stream?tenant_id=ten_a&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    }
    const header = await fetch(`${base}/v1/ledger/stream?tenant_id=ten_a`, { headers: { "last-event-id": "9e99" } });
    expect(header.status).toBe(400);
    await header.body?.cancel();
    const missing = await fetch(`${base}/v1/ledger/stream`);
    expect(missing.status).toBe(400);
    await missing.body?.cancel();
  });
});
