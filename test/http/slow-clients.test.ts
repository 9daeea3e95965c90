import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

/** Slow or stalled clients are dropped at their deadline (set short here), not held for minutes. */
let t: TestServer;
let port = 0;
beforeAll(async () => {
  t = await startTestServer({ httpTimeouts: { headersMs: 1000, requestMs: 2000, keepAliveMs: 500 } });
  port = Number(new URL(t.url).port);
});
afterAll(() => t.close());

/** Opens a raw TCP connection; resolves with what arrived and how long until the server closed it. */
function raw(script: (s: net.Socket) => void): Promise<{ data: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1");
    const t0 = Date.now();
    let data = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => (data += d));
    s.on("close", () => resolve({ data, closedAfterMs: Date.now() - t0 }));
    s.on("error", () => undefined);
    s.on("connect", () => script(s));
    setTimeout(() => reject(new Error("the server never closed the connection")), 15_000).unref();
  });
}

describe("deadlines for slow clients", () => {
  it("headers that never finish: closed after the headers deadline", async () => {
    const r = await raw((s) => s.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(r.closedAfterMs).toBeLessThan(4000);
  });

  it("a body trickled too slowly: closed after the request deadline", async () => {
    const r = await raw((s) => {
      s.write("POST /v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
      const timer = setInterval(() => (s.writable ? s.write(" ") : clearInterval(timer)), 300);
      s.on("close", () => clearInterval(timer));
    });
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(1900);
    expect(r.closedAfterMs).toBeLessThan(5000);
  });

  it("an idle keep-alive connection: closed after the keep-alive deadline, once answered", async () => {
    const r = await raw((s) => s.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"));
    expect(r.data).toMatch(/^HTTP\/1\.1 200/);
    expect(r.closedAfterMs).toBeLessThan(3000);
  });

  it("a stream (a long response, not a slow request) outlives every deadline", async () => {
    const token = t.demo.humans[0]!.token;
    const r = await raw((s) => {
      s.write(`GET /v1/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      setTimeout(() => s.destroy(), 3500);
    });
    expect(r.data).toMatch(/^HTTP\/1\.1 200/);
    expect(r.data).toContain("event: hello");
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(3400);
  });
});
