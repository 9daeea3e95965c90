import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createCalDavCalendar } from "../../../src/office/calendar/index.js";
import { objectName } from "../../../src/office/calendar/object-name.js";
import { ToolFailure } from "../../../src/office/tools/tool.js";

// Failures Radicale cannot be asked to produce (throttling, a broken server, one that hangs),
// from a tiny HTTP server that answers every request the same way.
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function serve(answer: (res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function failureOf(p: Promise<unknown>): Promise<ToolFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolFailure);
  return err as ToolFailure;
}

const cfg = (url: string) => ({ url, username: "u", password: "p-secret" });

describe("CalDAV failures", () => {
  it("429 is PROVIDER_RATE_LIMIT with Retry-After as the suggested wait", async () => {
    const url = await serve((res) => res.writeHead(429, { "retry-after": "7" }).end());
    const f = await failureOf(createCalDavCalendar(cfg(url)).describe());
    expect([f.code, f.suggestedWaitSeconds]).toEqual(["PROVIDER_RATE_LIMIT", 7]);
  });

  it("5xx is PROVIDER_UNAVAILABLE", async () => {
    const url = await serve((res) => res.writeHead(503).end("down for maintenance"));
    const f = await failureOf(createCalDavCalendar(cfg(url)).put("x", "BEGIN:VCALENDAR"));
    expect(f.code).toBe("PROVIDER_UNAVAILABLE");
    expect(f.message).not.toContain("maintenance");
  });

  it("a server that never answers is PROVIDER_TIMEOUT within the deadline", async () => {
    const url = await serve(() => undefined);
    const t0 = Date.now();
    const f = await failureOf(createCalDavCalendar(cfg(url), { timeoutMs: 300 }).busy(0, 1));
    expect(f.code).toBe("PROVIDER_TIMEOUT");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("an address that is not a CalDAV server is INVALID_INPUT naming CALDAV_URL", async () => {
    const url = await serve((res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>p-secret</h1>"));
    const f = await failureOf(createCalDavCalendar(cfg(url)).describe());
    expect(f.code).toBe("INVALID_INPUT");
    expect(f.message).toContain("CALDAV_URL");
    expect(f.message).not.toContain("p-secret");
  });

  it("rejects an empty UID and an empty range before touching the network", async () => {
    const cal = createCalDavCalendar(cfg("http://127.0.0.1:9/"));
    expect((await failureOf(cal.put(" ", "x"))).code).toBe("INVALID_INPUT");
    expect((await failureOf(cal.busy(10, 10))).code).toBe("INVALID_INPUT");
  });
});

describe("objectName", () => {
  it("is stable, URL- and file-safe, and keeps different UIDs apart", () => {
    const uids = [
      "a@b",
      "a_40b",
      "a-40b",
      "../x",
      ".hidden",
      "ü",
      "a/b",
      "A@B",
      "x".repeat(300),
      `${"x".repeat(300)}y`,
    ];
    const names = uids.map(objectName);
    expect(new Set(names).size).toBe(uids.length);
    for (const n of names) expect(n).toMatch(/^~?[A-Za-z0-9_-]+\.ics$/);
    expect(objectName("a@b")).toBe(objectName("a@b"));
    expect(objectName("job-42")).toBe("job-42.ics");
  });
});
