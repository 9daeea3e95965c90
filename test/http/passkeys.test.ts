import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSoftAuthenticator, type SoftAuthenticator } from "../support/soft-authenticator.js";
import { getJson, postJson, startTestServer, type TestServer, demoPerson } from "../support/server.js";

/**
 * Passkeys over real HTTP with a software authenticator: a person adds one and signs in with it
 * as a new session of the same person; each challenge works once; the server's own address is
 * the relying party (another origin is refused); an unknown or removed passkey signs nobody in;
 * a deactivated person cannot sign in; a replayed counter is refused; signed out, nothing can
 * be added.
 */
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const anonKey = () => `k-anon-${randomBytes(12).toString("hex")}`;

let t: TestServer;
let dan: { entity_id: string; token: string };
let ana: { entity_id: string; token: string };
const rp = () => ({ origin: t.url, rpId: new URL(t.url).hostname });

beforeAll(async () => {
  t = await startTestServer();
  dan = demoPerson(t, "Dan");
  ana = demoPerson(t, "Ana");
}, 30_000);
afterAll(async () => {
  await t?.close();
});

async function anon(path: string, body: unknown, key = anonKey()) {
  const res = await fetch(`${t.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key, "user-agent": CHROME },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const signInOptions = async () => (await anon("/v1/passkeys/sign-in-options", {})).body;
const signIn = (response: unknown) => anon("/v1/passkeys/sign-in", { response });
const registrationOptions = async (token: string) =>
  (await postJson(`${t.url}/v1/passkeys/registration-options`, token, {})).body;
const register = (token: string, response: unknown) => postJson(`${t.url}/v1/passkeys`, token, { response });

async function addPasskey(token: string): Promise<{ key: SoftAuthenticator; passkeyId: string }> {
  const key = createSoftAuthenticator(rp());
  const made = await register(token, key.register(await registrationOptions(token)));
  expect(made.status).toBe(201);
  return { key, passkeyId: made.body.passkey_id };
}

describe("adding a passkey and signing in with it", () => {
  it("registers for the signed-in person against the public URL, lists it, and signs that person in as a new session", async () => {
    const options = await registrationOptions(dan.token);
    expect(options.rp.id).toBe("127.0.0.1");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const key = createSoftAuthenticator(rp());
    const made = await register(dan.token, key.register(options));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ passkey_id: expect.stringMatching(/^pk_[0-9a-f]{24}$/), last_used_at: null });
    const listed = await getJson(`${t.url}/v1/passkeys`, dan.token);
    expect(listed.body.passkeys.map((p: any) => p.passkey_id)).toContain(made.body.passkey_id);
    expect((await getJson(`${t.url}/v1/passkeys`, ana.token)).body.passkeys).toEqual([]);

    const before = (await getJson(`${t.url}/v1/sessions`, dan.token)).body.sessions.length;
    const signedIn = await signIn(key.signIn(await signInOptions()));
    expect(signedIn.status).toBe(201);
    expect(signedIn.body).toMatchObject({ entity_id: dan.entity_id, display_name: "Dan" });
    const me = await getJson(`${t.url}/v1/session`, signedIn.body.token);
    expect(me.body.entity_id).toBe(dan.entity_id);
    const sessions = (await getJson(`${t.url}/v1/sessions`, dan.token)).body.sessions;
    expect(sessions.length).toBe(before + 1);
    expect(sessions.find((s: any) => s.session_id === signedIn.body.session_id)).toMatchObject({
      signed_in_via: "passkey",
      device: "Chrome on Linux",
    });
    const used = (await getJson(`${t.url}/v1/passkeys`, dan.token)).body.passkeys.find(
      (p: any) => p.passkey_id === made.body.passkey_id,
    );
    expect(used.last_used_at).not.toBeNull();

    // The same credential cannot be added twice.
    const again = await register(dan.token, key.register(await registrationOptions(dan.token)));
    expect(again.status).toBe(409);
  });

  it("adds nothing and lists nothing signed out (401)", async () => {
    const res = await fetch(`${t.url}/v1/passkeys/registration-options`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": anonKey() },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("UNAUTHORIZED");
    const add = await fetch(`${t.url}/v1/passkeys`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": anonKey() },
      body: JSON.stringify({ response: {} }),
    });
    expect(add.status).toBe(401);
    expect((await fetch(`${t.url}/v1/passkeys`)).status).toBe(401);
  });
});

describe("what a passkey answer must be", () => {
  it("needs a challenge this server made, for that purpose and person, and each works once", async () => {
    // A challenge the server never made.
    const key = createSoftAuthenticator(rp());
    const forged = await register(
      dan.token,
      key.register({ challenge: randomBytes(32).toString("base64url"), user: { id: "eA" } }),
    );
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatchObject({ code: "PASSKEY_CHALLENGE_INVALID", details: { reason: "unknown" } });

    // Ana's registration challenge does not register a passkey for Dan, nor sign anyone in.
    const anasOptions = await registrationOptions(ana.token);
    const crossed = await register(dan.token, key.register(anasOptions));
    expect(crossed.body.error.code).toBe("PASSKEY_CHALLENGE_INVALID");
    const { key: danKey } = await addPasskey(dan.token);
    const wrongPurpose = await signIn(danKey.signIn(anasOptions));
    expect(wrongPurpose.body.error).toMatchObject({
      code: "PASSKEY_CHALLENGE_INVALID",
      details: { reason: "unknown" },
    });

    // A sign-in challenge answered twice: the second time is refused and makes no session.
    const options = await signInOptions();
    expect((await signIn(danKey.signIn(options))).status).toBe(201);
    const reused = await signIn(danKey.signIn(options));
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: "PASSKEY_CHALLENGE_INVALID", details: { reason: "used" } });
    expect(reused.body.token).toBeUndefined();
  });

  it("is refused from another origin, both adding and signing in", async () => {
    const key = createSoftAuthenticator(rp());
    const wrong = await register(
      dan.token,
      key.register(await registrationOptions(dan.token), { origin: "https://logline.example.evil" }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("PASSKEY_REFUSED");
    expect(wrong.body.error.message).toMatch(/origin/i);

    const { key: good } = await addPasskey(dan.token);
    const res = await signIn(good.signIn(await signInOptions(), { origin: "http://localhost:1" }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("PASSKEY_REFUSED");
  });

  it("refuses an unknown credential, a removed one, and a replayed counter", async () => {
    const stranger = createSoftAuthenticator(rp());
    const unknown = await signIn(stranger.signIn(await signInOptions()));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toMatchObject({ code: "UNAUTHORIZED", details: { reason: "unknown_credential" } });

    const { key, passkeyId } = await addPasskey(dan.token);
    expect((await signIn(key.signIn(await signInOptions(), { counter: 5 }))).status).toBe(201);
    const cloned = await signIn(key.signIn(await signInOptions(), { counter: 5 }));
    expect(cloned.status).toBe(400);
    expect(cloned.body.error.code).toBe("PASSKEY_REFUSED");
    expect(cloned.body.error.message).toMatch(/counter/i);

    // The authenticator must name the passkey's own person.
    const anaHandle = Buffer.from(`tnt_acme_001/${ana.entity_id}`).toString("base64url");
    const impostor = await signIn(key.signIn(await signInOptions(), { userHandle: anaHandle }));
    expect(impostor.status).toBe(400);
    expect(impostor.body.error.message).toMatch(/user handle/);

    // Ana cannot remove Dan's passkey; Dan can, and then it signs nobody in.
    const del = (token: string, id: string) =>
      fetch(`${t.url}/v1/passkeys/${id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}`, "idempotency-key": anonKey() },
      });
    expect((await del(ana.token, passkeyId)).status).toBe(404);
    const removed = await del(dan.token, passkeyId);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ passkey_id: passkeyId, removed: true });
    expect(
      (await getJson(`${t.url}/v1/passkeys`, dan.token)).body.passkeys.map((p: any) => p.passkey_id),
    ).not.toContain(passkeyId);
    const after = await signIn(key.signIn(await signInOptions()));
    expect(after.status).toBe(401);
    expect(after.body.error.details.reason).toBe("unknown_credential");
    expect((await del(dan.token, "pk_nope")).status).toBe(400);
  });

  it("does not sign a deactivated person in, and does again once they are reactivated", async () => {
    const { key } = await addPasskey(ana.token);
    const admin = (action: string) => postJson(`${t.url}/v1/admin/members/${ana.entity_id}/${action}`, dan.token, {});
    expect((await admin("deactivate")).status).toBe(200);
    try {
      const res = await signIn(key.signIn(await signInOptions()));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: "FORBIDDEN", details: { reason: "deactivated" } });
      expect(res.body.token).toBeUndefined();
    } finally {
      expect((await admin("reactivate")).status).toBe(200);
    }
    const back = await signIn(key.signIn(await signInOptions()));
    expect(back.status).toBe(201);
    expect(back.body.entity_id).toBe(ana.entity_id);
    ana = { ...ana, token: back.body.token };
  });

  it("answers malformed input in the standard shape", async () => {
    const cases: Array<[string, unknown]> = [
      ["/v1/passkeys/sign-in", {}],
      ["/v1/passkeys/sign-in", { response: { id: "a", rawId: "a", type: "password", response: {} } }],
      [
        "/v1/passkeys/sign-in",
        {
          response: {
            id: "a b",
            rawId: "a",
            type: "public-key",
            response: { clientDataJSON: "x", authenticatorData: "x", signature: "x" },
          },
        },
      ],
      [
        "/v1/passkeys/sign-in",
        {
          response: {
            id: "a",
            rawId: "a",
            type: "public-key",
            response: { clientDataJSON: "bm90IGpzb24", authenticatorData: "x", signature: "x" },
          },
        },
      ],
      ["/v1/passkeys/sign-in-options", { extra: 1 }],
    ];
    for (const [path, body] of cases) {
      const res = await anon(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    const big = await anon("/v1/passkeys/sign-in", {
      response: {
        id: "a".repeat(2000),
        rawId: "a",
        type: "public-key",
        response: { clientDataJSON: "x", authenticatorData: "x", signature: "x" },
      },
    });
    expect(big.status).toBe(400);
    const noKey = await fetch(`${t.url}/v1/passkeys/sign-in-options`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "short" },
      body: "{}",
    });
    expect(noKey.status).toBe(400);
  });
});
