import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

/** A body over the limit always gets its 413 in the standard shape: never a reset connection. */
let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = t.demo.humans[0]!.token;
});
afterAll(() => t.close());

const TWO_MIB = Buffer.alloc(2 * 1024 * 1024, 0x61);

function send(opts: {
  chunked: boolean;
  agent: http.Agent;
}): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.url}/v1/conversations/cnv_9f2a/messages`,
      {
        method: "POST",
        agent: opts.agent,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": `k-big-${Math.random()}`,
          ...(opts.chunked ? {} : { "content-length": TWO_MIB.length }),
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      },
    );
    req.on("error", reject);
    if (opts.chunked) {
      // Sent in pieces without Content-Length, the way a streaming client does.
      for (let i = 0; i < TWO_MIB.length; i += 64 * 1024) req.write(TWO_MIB.subarray(i, i + 64 * 1024));
      req.end();
    } else req.end(TWO_MIB);
  });
}

describe("oversized bodies", () => {
  it.each([false, true])("30 sends of 2 MiB (chunked: %s) each get the 413, none a socket error", async (chunked) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const results = await Promise.allSettled(Array.from({ length: 30 }, () => send({ chunked, agent })));
      const failed = results.filter((r) => r.status === "rejected");
      expect(failed.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([]);
      for (const r of results as Array<
        PromiseFulfilledResult<{ status: number; body: string; connection: string | undefined }>
      >) {
        expect(r.value.status).toBe(413);
        expect(JSON.parse(r.value.body).error.code).toBe("PAYLOAD_TOO_LARGE");
        expect(r.value.connection).toBe("close");
      }
    } finally {
      agent.destroy();
    }
  });

  it("the server is fine afterwards: a normal post on a fresh connection is accepted", async () => {
    const r = await fetch(`${t.url}/v1/conversations/cnv_dan_ana/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": "k-after-big",
      },
      body: JSON.stringify({ kind: "text", body_text: "still here" }),
    });
    expect(r.status).toBe(202);
  });
});
