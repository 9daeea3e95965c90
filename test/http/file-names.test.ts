import contentDisposition from "content-disposition";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

/** Files keep their names, whatever the script: uploaded, listed and downloaded intact (RFC 6266 / 5987). */
let t: TestServer;
let dan: string;
beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
});
afterAll(() => t.close());

async function upload(name: string, body = "%PDF-1.4 test") {
  const form = new FormData();
  form.append("file", new Blob([body], { type: "application/pdf" }), name);
  const r = await fetch(`${t.url}/v1/conversations/cnv_dan_ana/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${dan}`, "idempotency-key": `k-name-${Math.random()}` },
    body: form,
  });
  expect(r.status).toBe(202);
  return ((await r.json()) as { artifact_id: string }).artifact_id;
}

describe("file names in any script", () => {
  it.each([
    "Relatório — 東京.pdf",
    "Отчёт 2026.pdf",
    "تقرير.pdf",
    "emoji 📎 notes.pdf",
    "plain-name.pdf",
    'quote"and;semi.pdf',
  ])("downloads “%s” with its name", async (name) => {
    const id = await upload(name);
    const r = await fetch(`${t.url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(r.status).toBe(200);
    const header = r.headers.get("content-disposition")!;
    // Header bytes stay ASCII; the real name travels in filename*.
    expect(/^[\x20-\x7e]+$/.test(header)).toBe(true);
    const parsed = contentDisposition.parse(header);
    expect(parsed.type).toBe("attachment");
    expect(parsed.parameters.filename).toBe(name.replace(/"/g, "_"));
    expect(await r.text()).toBe("%PDF-1.4 test");
  });

  it("control characters never reach the header", async () => {
    const id = await upload("line\u0001break\u007f.pdf");
    const r = await fetch(`${t.url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(r.status).toBe(200);
    expect(contentDisposition.parse(r.headers.get("content-disposition")!).parameters.filename).toBe("line_break_.pdf");
  });
});
