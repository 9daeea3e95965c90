import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * `GET /v1/conversations/{id}/messages` (the main spec's name) serves the timeline projection:
 * the same items, cursors and pages, the same auth and tenancy answers.
 */
let t: TestServer;
let dan: string;
let bob: string;
const C = "cnv_9f2a";
const get = (token: string | null, path: string) =>
  t.server.app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const json = async (r: Response) => (await r.json()) as any;

beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
  const ws = await t.server.app.request("/v1/workspaces", {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": "workspace-bob-alias-0001" },
    body: JSON.stringify({ name: "Bob's Bakery", owner: { display_name: "Bob" } }),
  });
  bob = (await json(ws)).token;
  for (const text of ["one", "two", "three"]) {
    const r = await t.server.app.request(`/v1/conversations/${C}/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${dan}`,
        "content-type": "application/json",
        "idempotency-key": `alias-${text}`,
      },
      body: JSON.stringify({ kind: "text", body_text: text }),
    });
    expect(r.status).toBe(202);
  }
  await waitFor(async () =>
    (await json(await get(dan, `/v1/conversations/${C}/timeline`))).items.some(
      (i: any) => i.message.body_text === "three",
    ),
  );
  await t.server.office.idle();
});
afterAll(() => t.close());

describe("GET /v1/conversations/{id}/messages", () => {
  it("answers exactly what /timeline answers, page by page", async () => {
    let q = "?limit=2";
    for (let page = 0; page < 50; page++) {
      const timeline = await json(await get(dan, `/v1/conversations/${C}/timeline${q}`));
      const messages = await json(await get(dan, `/v1/conversations/${C}/messages${q}`));
      expect(messages).toEqual(timeline);
      expect(messages.items.length).toBeLessThanOrEqual(2);
      if (!messages.next_cursor) return;
      q = `?limit=2&before=${messages.next_cursor}`;
    }
    throw new Error("never reached the first page");
  });

  it("refuses bad paging, missing auth and another tenant's conversation with the standard error shape", async () => {
    for (const [token, path, status, code] of [
      [dan, `/v1/conversations/${C}/messages?limit=0`, 400, "VALIDATION_ERROR"],
      [dan, `/v1/conversations/${C}/messages?before=nope`, 400, "VALIDATION_ERROR"],
      [null, `/v1/conversations/${C}/messages`, 401, "UNAUTHORIZED"],
      [bob, `/v1/conversations/${C}/messages`, 404, "NOT_FOUND"],
      [dan, `/v1/conversations/cnv_missing/messages`, 404, "NOT_FOUND"],
    ] as const) {
      const r = await get(token, path);
      expect(r.status, path).toBe(status);
      const e = (await json(r)).error;
      expect(e.code, path).toBe(code);
      expect(typeof e.message).toBe("string");
    }
  });
});
