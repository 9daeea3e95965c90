import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Audio arrives as audio: the type is read from the bytes (an .ogg a browser labels
 * application/octet-stream, or with no type at all, is audio/ogg), so the Messenger can play it
 * inline; a recording's length goes on its artifact; what only claims to be audio stays a download.
 */
let t: TestServer;
let dan: string;
beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
});
afterAll(() => t.close());

/** A real WAV file: 16-bit mono PCM, `ms` of a 440 Hz tone at 8 kHz. */
function wav(ms: number): Uint8Array {
  const rate = 8000;
  const n = Math.round((rate * ms) / 1000);
  const b = Buffer.alloc(44 + n * 2);
  b.write("RIFF", 0, "ascii");
  b.writeUInt32LE(36 + n * 2, 4);
  b.write("WAVEfmt ", 8, "ascii");
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36, "ascii");
  b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return new Uint8Array(b);
}

/** The start of each container, as a file of that kind begins (the signature is what is read). */
const pad = (head: number[] | string) =>
  new Uint8Array([...(typeof head === "string" ? Buffer.from(head, "latin1") : head), ...new Array(64).fill(0)]);
const SAMPLES: Array<[string, string, string, Uint8Array]> = [
  ["voice.ogg", "application/octet-stream", "audio/ogg", pad("OggS\u0000\u0002")],
  ["voice.ogg", "", "audio/ogg", pad("OggS\u0000\u0002")],
  [
    "note.webm",
    "audio/webm;codecs=opus",
    "audio/webm",
    pad([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, ...Buffer.from("webm")]),
  ],
  ["song.mp3", "audio/mpeg", "audio/mpeg", pad("ID3\u0004\u0000")],
  ["song.mp3", "application/octet-stream", "audio/mpeg", pad([0xff, 0xfb, 0x90, 0x64])],
  ["memo.m4a", "audio/x-m4a", "audio/mp4", pad("\u0000\u0000\u0000\u0020ftypM4A \u0000\u0000\u0000\u0000")],
  ["tone.wav", "audio/wav", "audio/wav", wav(300)],
  // Claims to be audio, is not: served as a download.
  ["fake.mp3", "audio/mpeg", "application/octet-stream", pad("<html><script>alert(1)</script>")],
  // A video MP4 stays a download; a file declared as text stays text.
  [
    "clip.mp4",
    "video/mp4",
    "application/octet-stream",
    pad("\u0000\u0000\u0000\u0020ftypisom\u0000\u0000\u0000\u0000"),
  ],
  ["notes.txt", "text/plain", "text/plain", pad("OggS but really text")],
];

async function upload(name: string, type: string, bytes: Uint8Array, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], type ? { type } : {}), name);
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return fetch(`${t.url}/v1/conversations/cnv_dan_ana/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${dan}`, "idempotency-key": `k-audio-${Math.random()}` },
    body: form,
  });
}

async function artifactOf(id: string) {
  const items = (await getJson(`${t.url}/v1/conversations/cnv_dan_ana/timeline?limit=500`, dan)).body.items as any[];
  return items.find((i) => i.message?.artifact?.artifact_id === id)?.message.artifact;
}

describe("audio attachments", () => {
  it.each(SAMPLES)("%s sent as “%s” is stored and served as %s", async (name, type, expected, bytes) => {
    const r = await upload(name, type, bytes);
    expect(r.status).toBe(202);
    const { artifact_id } = (await r.json()) as { artifact_id: string };
    expect((await artifactOf(artifact_id)).mime_type).toBe(expected);
    const file = await fetch(`${t.url}/v1/artifacts/${artifact_id}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(file.headers.get("content-type")).toBe(expected);
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });

  it("keeps a recording's length on its artifact, only for audio", async () => {
    const r = await upload("voice-note.wav", "audio/wav", wav(1200), { duration_ms: "1200" });
    const { artifact_id } = (await r.json()) as { artifact_id: string };
    expect((await artifactOf(artifact_id)).duration_ms).toBe(1200);
    const text = await upload("n.txt", "text/plain", pad("hello"), { duration_ms: "1200" });
    expect(
      (await artifactOf(((await text.json()) as { artifact_id: string }).artifact_id)).duration_ms,
    ).toBeUndefined();
  });

  it.each(["0", "-5", "1.5", "abc", "86400001", "9".repeat(40)])(
    "refuses duration_ms %s, storing nothing",
    async (bad) => {
      const r = await upload("voice-note.wav", "audio/wav", wav(100), { duration_ms: bad });
      expect(r.status).toBe(400);
      const body = (await r.json()) as { error: { code: string; details: { field: string } } };
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(body.error.details.field).toBe("duration_ms");
    },
  );

  it("answers one byte range with 206 (what a player seeks with), and the whole file otherwise", async () => {
    const bytes = wav(500);
    const { artifact_id } = (await (await upload("tone.wav", "audio/wav", bytes)).json()) as { artifact_id: string };
    const get = (range?: string) =>
      fetch(`${t.url}/v1/artifacts/${artifact_id}`, {
        headers: { authorization: `Bearer ${dan}`, ...(range ? { range } : {}) },
      });
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    const n = bytes.length;
    for (const [range, start, end] of [
      ["bytes=0-", 0, n - 1],
      ["bytes=100-199", 100, 199],
      ["bytes=-50", n - 50, n - 1],
      [`bytes=${n - 10}-${n + 1000}`, n - 10, n - 1],
    ] as const) {
      const r = await get(range);
      expect(r.status, range).toBe(206);
      expect(r.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${n}`);
      expect(r.headers.get("content-type")).toBe("audio/wav");
      expect(new Uint8Array(await r.arrayBuffer()), range).toEqual(bytes.subarray(start, end + 1));
    }
    // Several ranges, one past the end, or nonsense: the whole file.
    for (const range of ["bytes=0-1,5-9", `bytes=${n}-`, "bytes=9-2", "items=0-1", `bytes=${"1".repeat(40)}-`]) {
      const r = await get(range);
      expect(r.status, range).toBe(200);
      expect((await r.arrayBuffer()).byteLength, range).toBe(n);
    }
  });
});
