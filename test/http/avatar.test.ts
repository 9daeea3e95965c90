import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../contracts/facts.js";
import { openStream } from "../support/golden.js";
import { gifHeader, png, pngHeader } from "../support/pictures.js";
import { getJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";

/**
 * A person's profile picture over real HTTP: uploaded as a checked picture, stored on this
 * server and named by its own route in an entity.profile_updated, live for the workspace
 * (entity.update), served only to signed-in members of the workspace, removed back to initials.
 */
let t: TestServer;
let dan: string;
let ana: string;
const ANA = "ent_human_ana";

beforeAll(async () => {
  t = await startTestServer();
  dan = demoPerson(t, "Dan").token;
  ana = demoPerson(t, "Ana").token;
}, 30_000);
afterAll(() => t?.close());

async function upload(bytes: Uint8Array | string, type: string, token = ana, key?: string) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart], { type }), "me.png");
  const res = await fetch(`${t.url}/v1/me/avatar`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "idempotency-key": key ?? `k-${Math.random()}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const remove = async (token = ana) => {
  const res = await fetch(`${t.url}/v1/me/avatar`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${token}`, "idempotency-key": `k-${Math.random()}` },
  });
  return { status: res.status, body: (await res.json()) as any };
};
const entity = async (id: string) =>
  (await getJson(`${t.url}/v1/entities`, dan)).body.items.find((e: any) => e.entity_id === id);
const profileEvents = () =>
  t.server.ledger.query({ tenant_id: "tnt_acme_001", event_type: "entity.profile_updated", limit: 1000 })
    .events as any[];

function expectRefused(r: { status: number; body: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe("string");
}

describe("profile pictures", () => {
  it("an upload becomes the avatar everyone sees, live, served from this server", async () => {
    const stream = openStream(t.url, { token: dan });
    const bytes = png(96, 64);
    const r = await upload(bytes, "image/png");
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toMatch(/^\/v1\/avatars\/av_[0-9a-f]+$/);
    const ev = profileEvents().find((e) => e.event_id === r.body.created_event_ids[0]);
    expect(ev).toMatchObject({
      actor: { entity_id: ANA, actor_type: "human" },
      payload: { entity_id: ANA, avatar_url: r.body.avatar_url },
    });
    expect((await entity(ANA)).avatar_url).toBe(r.body.avatar_url);
    const frame = await stream.waitFor(
      (f) => f.event === "entity.update" && f.data.entity.avatar_url === r.body.avatar_url,
      8000,
      "entity.update with the avatar",
    );
    expect(frame.data.entity.entity_id).toBe(ANA);
    stream.close();

    // Dan (same workspace) fetches the picture: the bytes as uploaded, an image type, not sniffable.
    const file = await fetch(`${t.url}${r.body.avatar_url}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    // Nobody signed out, and nobody of another workspace, gets it.
    expect((await fetch(`${t.url}${r.body.avatar_url}`)).status).toBe(401);
    const ws = await fetch(`${t.url}/v1/workspaces`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": `k-other-workspace-${Date.now()}` },
      body: JSON.stringify({ name: "Other Co", owner: { display_name: "Olga" } }),
    });
    const other = ((await ws.json()) as any).token as string;
    expect(
      (await fetch(`${t.url}${r.body.avatar_url}`, { headers: { authorization: `Bearer ${other}` } })).status,
    ).toBe(404);
  });

  it("a picture in another type's clothing is kept as the type its bytes have", async () => {
    const r = await upload(gifHeader(20, 20), "image/png");
    expect(r.status).toBe(200);
    const file = await fetch(`${t.url}${r.body.avatar_url}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(file.headers.get("content-type")).toBe("image/gif");
  });

  it("refuses what is not a picture, too large, or too many pixels, and writes nothing", async () => {
    const before = profileEvents().length;
    expectRefused(
      await upload("<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml"),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expectRefused(await upload("<html><script>alert(1)</script></html>", "image/png"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectRefused(await upload("plain words", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectRefused(await upload(new Uint8Array(0), "image/png"), 400, "VALIDATION_ERROR");
    const big = new Uint8Array(LIMITS.avatarBytes + 1);
    big.set(pngHeader(100, 100));
    const tooBig = await upload(big, "image/png");
    expectRefused(tooBig, 413, "PAYLOAD_TOO_LARGE");
    expect(tooBig.body.error.details).toMatchObject({ max_bytes: LIMITS.avatarBytes });
    const wide = await upload(pngHeader(LIMITS.avatarSide + 1, 10), "image/png");
    expectRefused(wide, 400, "VALIDATION_ERROR");
    expect(wide.body.error.details).toMatchObject({ max_side: LIMITS.avatarSide });
    // No file field at all, and not multipart.
    const none = await fetch(`${t.url}/v1/me/avatar`, {
      method: "POST",
      headers: { authorization: `Bearer ${ana}`, "idempotency-key": "k-none" },
      body: new FormData(),
    });
    expect(none.status).toBe(400);
    const json = await fetch(`${t.url}/v1/me/avatar`, {
      method: "POST",
      headers: { authorization: `Bearer ${ana}`, "idempotency-key": "k-json", "content-type": "application/json" },
      body: JSON.stringify({ avatar_url: "https://evil.example/x.png" }),
    });
    expect(json.status).toBe(415);
    expect(profileEvents().length).toBe(before);
  });

  it("the profile route takes no avatar address, and the ledger refuses one from elsewhere", async () => {
    const res = await fetch(`${t.url}/v1/me/profile`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ana}`, "content-type": "application/json", "idempotency-key": "k-url" },
      body: JSON.stringify({ avatar_url: "https://evil.example/x.png" }),
    });
    expect(res.status).toBe(400);
    const external = {
      event_id: `evt_avatar_external_${Date.now()}`,
      tenant_id: "tnt_acme_001",
      event_type: "entity.profile_updated",
      ts: new Date().toISOString(),
      conversation_id: "cnv_workspace",
      trace_id: "trc_avatar_external",
      actor: { entity_id: ANA, actor_type: "human" as const },
      payload: { entity_id: ANA, avatar_url: "https://evil.example/x.png" },
    };
    await expect(t.server.ledger.append({ tenant_id: "tnt_acme_001", events: [external] })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    expect((await entity(ANA)).avatar_url ?? "").not.toContain("evil");
  });

  it("removing it brings the initials back, for everyone", async () => {
    await upload(png(10, 10), "image/png");
    const stream = openStream(t.url, { token: dan });
    const r = await remove();
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toBeUndefined();
    expect(profileEvents().find((e) => e.event_id === r.body.created_event_ids[0]).payload).toEqual({
      entity_id: ANA,
      avatar_url: "",
    });
    expect((await entity(ANA)).avatar_url).toBeUndefined();
    await stream.waitFor(
      (f) => f.event === "entity.update" && f.data.entity.entity_id === ANA && f.data.entity.avatar_url === undefined,
      8000,
      "entity.update without avatar",
    );
    stream.close();
  });
});
