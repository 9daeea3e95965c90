import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { jsonBodySchema, operations, sampleValue, serveEveryRoute, stringFields } from "../support/openapi-walk.js";

/** Text that is not well-formed UTF-16 (a lone surrogate) is refused with 400 INVALID_INPUT on every route, never a 500. */
const api = serveEveryRoute();

const send = (method: string, path: string, body: string) =>
  fetch(`${api.t.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${api.dan}`,
      "content-type": "application/json",
      "idempotency-key": `surrogate-${Math.random().toString(36).slice(2)}-${Date.now()}`,
    },
    body,
  });

describe("well-formed text", () => {
  it("a lone surrogate in a message, an edit, an agent, a contact or a profile gets 400 INVALID_INPUT", async () => {
    const conv = api.t.demo.conversation_id;
    const sent = await send(
      "POST",
      `/v1/conversations/${conv}/messages`,
      JSON.stringify({ kind: "text", body_text: "fine" }),
    );
    expect(sent.status).toBe(202);
    const messageId = ((await sent.json()) as { message_id?: string }).message_id ?? "msg_x";
    const cases: Array<[string, string, unknown]> = [
      ["POST", `/v1/conversations/${conv}/messages`, { kind: "text", body_text: "a\ud800b" }],
      ["PATCH", `/v1/conversations/${conv}/messages/${messageId}`, { body_text: "a\udc00" }],
      ["POST", "/v1/agents", { display_name: "Bot\ud83d", role: "helper" }],
      ["POST", "/v1/contacts", { display_name: "Bea\udfff" }],
      ["PUT", "/v1/entities/ent_human_dan/profile", { display_name: "Dan\ud800" }],
      ["POST", "/v1/contacts", { display_name: "Bea", "k\ud800": 1 }],
    ];
    for (const [method, path, body] of cases) {
      const res = await send(method, path, JSON.stringify(body));
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code, `${method} ${path}`).toBe("INVALID_INPUT");
    }
    // Well-formed pairs are fine.
    expect(
      (
        await send(
          "POST",
          `/v1/conversations/${conv}/messages`,
          JSON.stringify({ kind: "text", body_text: "ok \ud83d\ude00" }),
        )
      ).status,
    ).toBe(202);
  });

  it("every string field of every request body with a lone surrogate: 400 INVALID_INPUT, never a 5xx", async () => {
    const wrong: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations(api.doc)) {
      const schema = jsonBodySchema(op);
      if (!schema) continue;
      const url = path.replace(/\{[^}]+\}/g, (m) =>
        m === "{id}" && path.startsWith("/v1/conversations") ? api.t.demo.conversation_id : "ent_human_ana",
      );
      for (const field of stringFields(api.doc, schema)) {
        const res = await send(
          method.toUpperCase(),
          url,
          JSON.stringify(sampleValue(api.doc, schema, { path: field, value: "x\ud800y" })),
        );
        sent++;
        const code = ((await res.json().catch(() => null)) as { error?: { code?: string } } | null)?.error?.code;
        if (res.status !== 400 || code !== "INVALID_INPUT")
          wrong.push(`${method} ${path} ${field.join(".")}: ${res.status} ${code}`);
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it("a JSON body that arrives in pieces, with a BOM and a byte that is not UTF-8, is read whole and decoded as a web Request decodes it", async () => {
    const conv = api.t.demo.conversation_id;
    const json = Buffer.from(JSON.stringify({ kind: "text", body_text: "pieces: ab" }));
    const at = json.indexOf("ab") + 1;
    // a BOM in front, and a lone 0xFF byte between "a" and "b"
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      json.subarray(0, at),
      Buffer.from([0xff]),
      json.subarray(at),
    ]);
    const expected = (
      JSON.parse(await new Request("http://x", { method: "POST", body: bytes }).text()) as { body_text: string }
    ).body_text;
    expect(expected).toBe("pieces: a\ufffdb");
    const { port } = new URL(api.t.url);
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8").on("data", (d: string) => (answer += d));
    await new Promise((r) => socket.once("connect", r));
    socket.write(
      `POST /v1/conversations/${conv}/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${api.dan}\r\n` +
        `content-type: application/json\r\nidempotency-key: pieces-${Date.now()}\r\ncontent-length: ${bytes.length}\r\nconnection: close\r\n\r\n`,
    );
    for (const piece of [bytes.subarray(0, 5), bytes.subarray(5, at + 4), bytes.subarray(at + 4)]) {
      socket.write(piece);
      await new Promise((r) => setTimeout(r, 30));
    }
    // the answer is whole once its Content-Length of body has come
    const whole = () => {
      const head = answer.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(answer)?.[1];
      return head >= 0 && length !== undefined && Buffer.byteLength(answer.slice(head + 4)) >= Number(length);
    };
    while (!whole()) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    expect(answer.startsWith("HTTP/1.1 202"), answer).toBe(true);
    const messageId = (JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { message_id: string }).message_id;
    const res = await fetch(`${api.t.url}/v1/conversations/${conv}/timeline?limit=1000`, {
      headers: { authorization: `Bearer ${api.dan}` },
    });
    const items = ((await res.json()) as { items: Array<{ message?: { message_id: string; body_text: string } }> })
      .items;
    expect(items.find((i) => i.message?.message_id === messageId)?.message?.body_text).toBe(expected);
  });
});
