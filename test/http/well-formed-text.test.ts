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
});
