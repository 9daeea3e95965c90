import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ZConversationDetail,
  ZConversationList,
  ZEntityList,
  ZPresenceList,
  ZSessionView,
  ZTimelinePage,
} from "../../contracts/gateway-responses.js";
import { ZJobDrawerResponse } from "../../contracts/gateway.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/**
 * The OpenAPI document is generated from the zod schemas the routes validate with. Checked
 * here: an independent validator accepts it as OpenAPI 3.1; every route the server serves is in
 * it (the web app's catch-all for static files aside); live answers match the response schemas
 * it states; /docs renders it.
 */
let t: TestServer;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
};

beforeAll(async () => {
  t = await startTestServer();
  const res = await fetch(`${t.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => t?.close());

const asOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]+)/g, "{$1}");

describe("GET /v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document (checked by an independent validator)", async () => {
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every route the server serves, and nothing it does not", () => {
    const served = new Set(
      t.server.app.routes
        .filter((r) => r.method !== "ALL" && r.path !== "/*" && r.path !== "*")
        .map((r) => `${r.method.toLowerCase()} ${asOpenApiPath(r.path)}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)),
    );
    expect([...served].filter((r) => !documented.has(r)).sort()).toEqual([]);
    expect([...documented].filter((r) => !served.has(r)).sort()).toEqual([]);
  });

  it("names a success response and the standard error shape for every operation, and a body schema for every JSON write", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses);
        expect(
          statuses.some((s) => /^[23]/.test(s)),
          `${method} ${path}`,
        ).toBe(true);
        if (
          ["post", "put", "patch"].includes(method) &&
          !path.includes("/attachments") &&
          !/\/(resend|deactivate|reactivate|rotate-tokens|pause|resume|call|join)$/.test(path)
        )
          expect(op.requestBody, `${method} ${path}`).toBeDefined();
      }
    }
    expect(doc.paths["/v1/conversations/{id}/messages"]!.post!.responses["422"]).toBeDefined();
  });

  it("states response shapes the live answers match", async () => {
    const dan = t.demo.humans[0]!.token;
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    const timeline = await waitFor(
      async () => {
        const r = (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline`, dan)).body;
        return r.items.some((i: any) => i.message.card) ? r : null;
      },
      5000,
      "a card",
    );
    expect(ZTimelinePage.safeParse(timeline).error).toBeUndefined();
    expect(ZSessionView.safeParse((await getJson(`${t.url}/v1/session`, dan)).body).error).toBeUndefined();
    expect(ZEntityList.safeParse((await getJson(`${t.url}/v1/entities`, dan)).body).error).toBeUndefined();
    expect(ZPresenceList.safeParse((await getJson(`${t.url}/v1/presence`, dan)).body).error).toBeUndefined();
    expect(ZConversationList.safeParse((await getJson(`${t.url}/v1/conversations`, dan)).body).error).toBeUndefined();
    expect(
      ZConversationDetail.safeParse((await getJson(`${t.url}/v1/conversations/cnv_9f2a`, dan)).body).error,
    ).toBeUndefined();
    const jobId = timeline.items.find((i: any) => i.message.card).message.card.job_id;
    expect(ZJobDrawerResponse.safeParse((await getJson(`${t.url}/v1/jobs/${jobId}`, dan)).body).error).toBeUndefined();
  });

  it("lists on every operation what the middleware in front of it can answer, and x-trace-id on every response", () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, raw] of Object.entries(item)) {
        const op = raw as {
          responses: Record<string, { headers?: Record<string, unknown> }>;
          requestBody?: unknown;
          security?: unknown[];
        };
        const want = [400, ...(path === "/healthz" ? [] : [503])];
        if (method !== "get") want.push(413, 429, ...(op.requestBody ? [415] : []));
        if (op.security?.length) want.push(401, 403);
        for (const s of want) if (!op.responses[s]) missing.push(`${method} ${path} ${s}`);
        for (const [s, r] of Object.entries(op.responses))
          if (!r.headers?.["x-trace-id"]) missing.push(`${method} ${path} ${s} x-trace-id`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("lists every operation's fields in one order, however its route spelled them", () => {
    const order = ["summary", "description", "tags", "security", "parameters", "requestBody", "responses"];
    const out: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const keys = Object.keys(op);
        const known = keys.filter((k) => order.includes(k));
        if (known.join() !== order.filter((k) => keys.includes(k)).join() || keys.indexOf("summary") !== 0)
          out.push(`${method} ${path}: ${keys.join(", ")}`);
      }
    expect(out).toEqual([]);
  });

  it("types every numeric query parameter as an integer with bounds, and refuses a non-integer with 400 in the standard shape", async () => {
    const numeric = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((op) =>
        (
          (
            op as {
              parameters?: Array<{
                name: string;
                in: string;
                schema?: { type?: string; minimum?: number; maximum?: number };
              }>;
            }
          ).parameters ?? []
        )
          .filter((p) => p.in === "query" && ["limit", "seq", "size", "from", "to", "start", "end"].includes(p.name))
          .map((p) => ({ path, ...p })),
      ),
    );
    expect(numeric.map((p) => p.path)).toEqual(
      expect.arrayContaining(["/v1/conversations/{id}/timeline", "/v1/conversations/{id}/messages", "/v1/search"]),
    );
    for (const p of numeric)
      expect(p.schema, `${p.path} ${p.name}`).toMatchObject({ type: "integer", minimum: expect.any(Number) });
    for (const p of numeric.filter((n) => n.name === "limit")) expect(p.schema?.maximum, p.path).toBeGreaterThan(1);
    const dan = t.demo.humans[0]!.token;
    for (const url of [
      "/v1/conversations/cnv_9f2a/timeline?limit=",
      "/v1/conversations/cnv_9f2a/messages?limit=",
      "/v1/search?q=call&limit=",
    ]) {
      for (const bad of ["abc", "1.5", "0", "1001000", "1e400"]) {
        const res = await getJson(`${t.url}${url}${bad}`, dan);
        expect(res.status, `${url}${bad}`).toBe(400);
        expect(res.body.error, `${url}${bad}`).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "limit" } });
      }
      expect((await getJson(`${t.url}${url}2`, dan)).status, `${url}2`).toBe(200);
    }
  });

  it("both event streams answer with an x-trace-id header (the one sent, when well-formed)", async () => {
    const dan = t.demo.humans[0]!.token;
    for (const path of ["/v1/stream", `/v1/ledger/stream?tenant_id=${t.demo.tenant_id}`]) {
      for (const sent of [undefined, "trc_fromtheclient"]) {
        const abort = new AbortController();
        const res = await fetch(`${t.url}${path}`, {
          headers: { authorization: `Bearer ${dan}`, ...(sent ? { "x-trace-id": sent } : {}) },
          signal: abort.signal,
        });
        abort.abort();
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-type"), path).toMatch(/^text\/event-stream/);
        expect(res.headers.get("x-trace-id"), path).toEqual(sent ?? expect.stringMatching(/^trc_/));
      }
    }
  });

  it("a body that is not JSON, or not JSON at all, gets the standard error shape", async () => {
    const dan = t.demo.humans[0]!.token;
    const post = (body: string, type: string) =>
      fetch(`${t.url}/v1/contacts`, {
        method: "POST",
        headers: { authorization: `Bearer ${dan}`, "content-type": type, "idempotency-key": `k-${Math.random()}` },
        body,
      });
    const plain = await post("display_name=Bea", "text/plain");
    expect(plain.status).toBe(415);
    expect((await plain.json()).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const broken = await post("{nope", "application/json");
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe("INVALID_JSON");
    const invalid = await post(JSON.stringify({ display_name: "" }), "application/json");
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "display_name" },
    });
  });
});

describe("GET /docs", () => {
  it("renders every operation of the document as HTML with no script, under the strict CSP", async () => {
    const res = await fetch(`${t.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    for (const path of Object.keys(doc.paths)) expect(html, path).toContain(`<code>${path}</code>`);
  });
});

describe("the web app's files", () => {
  it("serves pages, files and vendored modules with an ETag, answers 304 on revalidation, and refuses paths out of web/", async () => {
    const page = await fetch(`${t.url}/c/cnv_9f2a`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const etag = page.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await fetch(`${t.url}/c/cnv_9f2a`, { headers: { "if-none-match": etag! } })).status).toBe(304);
    const css = await fetch(`${t.url}/docs.css`);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(css.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${t.url}/vendor/preact/package.json`)).status).toBe(200);
    // A scoped package (the timeline's virtualizer) is served under its full name.
    const virtual = await fetch(`${t.url}/vendor/@tanstack/virtual-core/dist/esm/index.js`);
    expect(virtual.status).toBe(200);
    expect(virtual.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await fetch(`${t.url}/vendor/@tanstack/other/package.json`)).status).toBe(404);
    // The offline outbox's IndexedDB library.
    const idb = await fetch(`${t.url}/vendor/idb-keyval/dist/index.js`);
    expect(idb.status).toBe(200);
    expect(idb.headers.get("content-type")).toMatch(/^text\/javascript/);
    for (const p of ["/..%2fpackage.json", "/%2e%2e/package.json", "/vendor/preact/..%2f..%2fpackage.json"])
      expect((await fetch(`${t.url}${p}`)).status, p).toBe(404);
  });
});
