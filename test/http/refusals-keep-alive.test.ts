import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

/**
 * A refusal that comes before the body is read (400, 401, 403, 404, 413, 415) leaves the connection
 * usable: the answer arrives, and the next request on the same keep-alive socket is answered
 * too, never reset.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const BIG = Buffer.alloc(256 * 1024, 0x61);

function request(
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; connection?: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.url}${path}`,
      { method, agent, headers: { ...headers, ...(body ? { "content-length": String(body.length) } : {}) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      },
    );
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error("timed out")));
    req.end(body);
  });
}

describe("early refusals of large bodies on a keep-alive connection", () => {
  const member = () => t.demo.humans[1]!.token;
  const cases: Array<[string, string, string, () => Record<string, string>, number]> = [
    [
      "anonymous message",
      "POST",
      "/v1/conversations/cnv_9f2a/messages",
      () => ({ "content-type": "application/octet-stream" }),
      401,
    ],
    [
      "anonymous attachment",
      "POST",
      "/v1/conversations/cnv_9f2a/attachments",
      () => ({ "content-type": "multipart/form-data; boundary=x" }),
      401,
    ],
    [
      "a member on an admin route",
      "POST",
      "/v1/admin/members/ent_human_dan/deactivate",
      () => ({
        authorization: `Bearer ${member()}`,
        "content-type": "application/octet-stream",
        "idempotency-key": `ka-${Math.random()}`,
      }),
      403,
    ],
    ["no such route", "POST", "/v1/nothing-here", () => ({ "content-type": "application/json" }), 404],
    [
      "a path id that is not UTF-8",
      "POST",
      "/v1/conversations/%FF%FE/messages",
      () => ({ "content-type": "application/json" }),
      400,
    ],
    [
      "not JSON",
      "POST",
      "/v1/contacts",
      () => ({
        authorization: `Bearer ${t.demo.humans[0]!.token}`,
        "content-type": "text/plain",
        "idempotency-key": `ka-${Math.random()}`,
      }),
      415,
    ],
  ];

  it.each(cases)(
    "%s: the refusal arrives and the next request on the socket is answered",
    async (_name, method, path, headers, status) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; i < 3; i++) {
          const refused = await request(agent, method, path, headers(), BIG);
          expect(refused.status).toBe(status);
          const next = await request(agent, "GET", "/healthz", {});
          expect(next.status).toBe(200);
        }
      } finally {
        agent.destroy();
      }
    },
  );
});
