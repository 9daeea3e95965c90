import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A pass-through HTTP proxy in front of the real server, so a browser test can break only the
 * event stream (the way a flaky mobile network or a proxy timeout does) while REST keeps
 * working, or swap the server behind it (a restart on another port) without the page noticing
 * anything but a dropped connection.
 */
export interface StreamProxy {
  url: string;
  /** Every /v1/stream request the browser made: its URL and the Last-Event-ID it resumed from. */
  streams: Array<{ path: string; lastEventId: string | undefined; at: number; status?: number | undefined }>;
  /** GET /v1/conversations requests (the list), as times: what a refresh or a poll fetches. */
  listCalls: number[];
  setUpstream(url: string): void;
  /** Drops every open event stream mid-flight; returns how many. */
  cutStreams(): number;
  /** While on, new event streams are answered 503 (the browser's EventSource gives up on them). */
  blockStreams(on: boolean): void;
  /** While on, the network is gone: open connections drop and every request's connection is cut unanswered. */
  setDown(on: boolean): void;
  close(): Promise<void>;
}

export async function startProxy(upstream: string): Promise<StreamProxy> {
  let target = new URL(upstream);
  let blocked = false;
  let down = false;
  const open = new Set<ServerResponse>();
  const streams: StreamProxy["streams"] = [];
  const listCalls: number[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    const path = req.url ?? "/";
    const isStream = path.startsWith("/v1/stream");
    if (req.method === "GET" && /^\/v1\/conversations(\?|$)/.test(path)) listCalls.push(Date.now());
    const entry = isStream
      ? ({
          path,
          lastEventId: req.headers["last-event-id"] as string | undefined,
          at: Date.now(),
        } as StreamProxy["streams"][number])
      : null;
    if (entry) streams.push(entry);
    if (isStream && blocked) {
      entry!.status = 503;
      res.writeHead(503, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { code: "SERVICE_UNAVAILABLE", message: "stream blocked by the test", details: {} } }),
      );
      return;
    }
    const up = request(
      { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers },
      (ur) => {
        if (entry) entry.status = ur.statusCode;
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
        if (isStream) {
          open.add(res);
          res.on("close", () => open.delete(res));
        }
      },
    );
    up.on("error", () => {
      if (entry) entry.status = 502;
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "BAD_GATEWAY", message: "upstream down", details: {} } }));
    });
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    streams,
    listCalls,
    setUpstream(url) {
      target = new URL(url);
    },
    cutStreams() {
      const n = open.size;
      for (const r of open) r.socket?.destroy();
      open.clear();
      return n;
    },
    blockStreams(on) {
      blocked = on;
    },
    setDown(on) {
      down = on;
      if (on) server.closeAllConnections();
    },
    async close() {
      for (const r of open) r.socket?.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
