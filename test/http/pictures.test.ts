import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../contracts/facts.js";
import { gifHeader, png, pngHeader } from "../support/pictures.js";
import { getJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";

/** Pictures: their size read from the header at upload, checked against what they claim to be, bounded. */
let t: TestServer;
let dan: string;
let ana: string;
const CID = "cnv_dan_ana";
let n = 0;

beforeAll(async () => {
  t = await startTestServer();
  dan = demoPerson(t, "Dan").token;
  ana = demoPerson(t, "Ana").token;
});
afterAll(() => t.close());

type Part = { name?: string; type?: string; bytes?: Uint8Array<ArrayBuffer> | string };

async function upload(parts: Part[], extra: Record<string, string | Blob> = {}, token = dan) {
  const form = new FormData();
  for (const p of parts) form.append("file", new Blob([p.bytes ?? "x"], { type: p.type ?? "" }), p.name ?? "photo.png");
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  const r = await fetch(`${t.url}/v1/conversations/${CID}/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "idempotency-key": `k-pic-${++n}-${Date.now()}` },
    body: form,
  });
  return { status: r.status, body: (await r.json()) as any };
}

/** The timeline item of an uploaded artifact, as a member sees it. */
async function itemOf(artifactId: string, token = dan) {
  const r = await getJson(`${t.url}/v1/conversations/${CID}/timeline?limit=500`, token);
  expect(r.status).toBe(200);
  return (r.body.items as any[]).find((i) => i.message.artifact?.artifact_id === artifactId);
}

async function timelineLength(): Promise<number> {
  return ((await getJson(`${t.url}/v1/conversations/${CID}/timeline?limit=500`, dan)).body.items as unknown[]).length;
}

function expectRefused(r: { status: number; body: any }, status: number, code: string, field: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error.code).toBe(code);
  expect(r.body.error.details.field).toBe(field);
  expect(typeof r.body.error.message).toBe("string");
}

describe("pictures", () => {
  it("a PNG keeps its size from the header, for every member, and downloads byte for byte", async () => {
    const bytes = png(64, 48);
    const r = await upload([{ name: "team photo.png", type: "image/png", bytes }]);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const item = await itemOf(r.body.artifact_id, ana);
    expect(item.message.artifact).toMatchObject({
      mime_type: "image/png",
      width: 64,
      height: 48,
      title: "team photo.png",
      size_bytes: bytes.length,
    });
    const file = await fetch(`${t.url}${item.message.artifact.url}`, { headers: { authorization: `Bearer ${ana}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("a caption is the message's text; the file keeps its name; addresses in it go to the vault", async () => {
    const r = await upload([{ name: "whiteboard.png", type: "image/png", bytes: png(8, 8) }], {
      caption: "  The plan, ask maria@acme.com  ",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const item = await itemOf(r.body.artifact_id);
    expect(item.message.body_text).toBe("The plan, ask maria@acme.com");
    expect(item.message.artifact.title).toBe("whiteboard.png");
    const events: unknown[] = [];
    t.server.ledger.replay((e) => events.push(e), { tenantId: t.demo.tenant_id });
    const sent = JSON.stringify(events.find((e: any) => e.payload?.artifact?.artifact_id === r.body.artifact_id));
    expect(sent).toContain("The plan, ask");
    expect(sent).not.toContain("maria@acme.com");
  });

  it("one picture type in another's name is kept under the type its bytes have", async () => {
    const r = await upload([{ name: "actually.png", type: "image/png", bytes: gifHeader(30, 20) }]);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect((await itemOf(r.body.artifact_id)).message.artifact).toMatchObject({
      mime_type: "image/gif",
      width: 30,
      height: 20,
    });
  });

  it("refuses a file declared as a picture whose content is none (HTML, SVG, text), storing nothing", async () => {
    const before = await timelineLength();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    for (const [type, bytes] of [
      ["image/png", "<html><script>alert(1)</script></html>"],
      ["image/jpeg", svg],
      ["image/webp", "just text"],
      ["image/gif", pngHeader(10, 10).subarray(0, 12)],
    ] as const) {
      const r = await upload([{ name: "x.png", type, bytes }]);
      expectRefused(r, 415, "UNSUPPORTED_MEDIA_TYPE", "file");
      expect(r.body.error.details.declared).toBe(type);
      expect(r.body.error.message).toContain(type);
    }
    expect(await timelineLength()).toBe(before);
  });

  it("an SVG is never a picture here: stored as a plain download without a size", async () => {
    const r = await upload([
      {
        name: "logo.svg",
        type: "image/svg+xml",
        bytes: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
      },
    ]);
    expect(r.status).toBe(202);
    const a = (await itemOf(r.body.artifact_id)).message.artifact;
    expect(a.mime_type).toBe("application/octet-stream");
    expect(a.width).toBeUndefined();
  });

  it(`is shown inline up to ${LIMITS.imagePixels} pixels and ${LIMITS.imageSide} on a side; past either, a download without a size`, async () => {
    const cases: Array<[number, number, boolean]> = [
      [8000, 5000, true], // exactly the pixel bound
      [8001, 5000, false],
      [LIMITS.imageSide, 100, true],
      [LIMITS.imageSide + 1, 100, false],
      [100_000, 100_000, false], // a header claiming ten gigapixels
    ];
    for (const [w, h, inline] of cases) {
      const r = await upload([{ name: `big-${w}x${h}.png`, type: "image/png", bytes: pngHeader(w, h) }]);
      expect(r.status, `${w}x${h}`).toBe(202);
      const a = (await itemOf(r.body.artifact_id)).message.artifact;
      expect(a.mime_type).toBe("image/png");
      if (inline) expect(a, `${w}x${h}`).toMatchObject({ width: w, height: h });
      else expect([a.width, a.height], `${w}x${h}`).toEqual([undefined, undefined]);
    }
  });

  it("refuses more than one file in a request, and a caption that is too long or not text", async () => {
    const before = await timelineLength();
    const two = await upload([
      { type: "image/png", bytes: png(2, 2) },
      { type: "image/png", bytes: png(2, 2) },
    ]);
    expectRefused(two, 400, "VALIDATION_ERROR", "file");
    expect(two.body.error.details.received).toBe(2);
    const long = await upload([{ type: "image/png", bytes: png(2, 2) }], {
      caption: "a".repeat(LIMITS.messageChars + 1),
    });
    expectRefused(long, 400, "VALIDATION_ERROR", "caption");
    const blob = await upload([{ type: "image/png", bytes: png(2, 2) }], { caption: new Blob(["hi"]) });
    expectRefused(blob, 400, "VALIDATION_ERROR", "caption");
    expect(await timelineLength()).toBe(before);
    const ok = await upload([{ type: "image/png", bytes: png(2, 2) }], { caption: "a".repeat(LIMITS.messageChars) });
    expect(ok.status).toBe(202);
  });

  it("is served only to members of its conversation", async () => {
    const r = await upload([{ name: "private.png", type: "image/png", bytes: png(4, 4) }]);
    const outsider = await fetch(`${t.url}/v1/artifacts/${r.body.artifact_id}`);
    expect(outsider.status).toBe(401);
  });
});
