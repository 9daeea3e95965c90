import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/**
 * Web Push end to end: a push service served on loopback by this test receives the server's
 * real requests; each body is decrypted here (RFC 8291 aes128gcm, node:crypto, independently of
 * the library that encrypted it) with the device keys the test made, and the VAPID header
 * (RFC 8292) is checked against the server's public key.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A browser's side of a subscription: a P-256 key pair and a 16-byte auth secret. */
function device(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    endpoint,
    json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
    /** RFC 8291 §3.4 and RFC 8188: one record, padding delimiter 0x02. */
    decrypt(body: Buffer): unknown {
      const salt = body.subarray(0, 16);
      const idlen = body[20]!;
      const asPublic = body.subarray(21, 21 + idlen);
      const ciphertext = body.subarray(21 + idlen);
      const secret = ecdh.computeSecret(asPublic);
      const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), asPublic]);
      const ikm = Buffer.from(hkdfSync("sha256", secret, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
      const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
      const d = createDecipheriv("aes-128-gcm", cek, nonce);
      d.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const plain = Buffer.concat([d.update(ciphertext.subarray(0, ciphertext.length - 16)), d.final()]);
      let end = plain.length - 1;
      while (end >= 0 && plain[end] === 0) end--;
      expect(plain[end]).toBe(2);
      return JSON.parse(plain.subarray(0, end).toString("utf8"));
    },
  };
}

let t: TestServer;
let push: Server;
let pushUrl: string;
const received: Received[] = [];
/** Status the push service answers per path (default 201). */
const answers = new Map<string, number>();
let dan: string;
let ana: string;

beforeAll(async () => {
  push = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(req.url ?? "") ?? 201).end();
    });
  });
  await new Promise<void>((r) => push.listen(0, "127.0.0.1", r));
  pushUrl = `http://127.0.0.1:${(push.address() as AddressInfo).port}`;
  t = await startTestServer({ push: { allowLoopbackEndpoints: true } });
  dan = t.demo.humans[0]!.token;
  ana = t.demo.humans[1]!.token;
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => push.close(r));
});

const DM = "cnv_dan_ana";
const write = async (
  method: string,
  path: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": `k-${Math.random()}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
};
const subscribe = (token: string, sub: unknown) => write("POST", "/v1/push/subscriptions", token, sub);
const say = (token: string, text: string) =>
  postJson(`${t.url}/v1/conversations/${DM}/messages`, token, { kind: "text", body_text: text });
const subscriptionCount = (endpoint: string) =>
  (
    t.server.db.prepare("SELECT count(*) AS n FROM gateway_push_subscriptions WHERE endpoint = ?").get(endpoint) as {
      n: number;
    }
  ).n;
const settled = () => t.server.gateway.push.idle();

describe("Web Push", () => {
  it("a direct message reaches the other person's subscription as a real, decryptable Web Push request", async () => {
    const key = await getJson(`${t.url}/v1/push/vapid-public-key`, dan);
    expect(key.status).toBe(200);
    expect(key.body.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const d = device(`${pushUrl}/dan-phone`);
    const sub = await subscribe(dan, d.json);
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ subscription_id: expect.stringMatching(/^psub_/), created: true });

    const sent = await say(ana, "Lunch? Write to maria@acme.com if you can't");
    expect(sent.status).toBe(202);
    const r = await waitFor(() => received.find((x) => x.path === "/dan-phone"), 5000, "the push request");

    expect(r.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(r.headers.ttl)).toBeGreaterThan(0);
    const payload = d.decrypt(r.body) as Record<string, string>;
    expect(payload).toMatchObject({
      title: "Ana",
      url: `/c/${DM}`,
      kind: "direct_message",
      conversation_id: DM,
      tag: sent.body.created_event_ids[0],
    });
    // What the ledger holds: the address was moved to the vault before the message was stored.
    expect(payload.body).toMatch(/^Lunch\? Write to m\*+@acme\.com if you can't$/);

    // VAPID: signed by the key the server publishes, for this push service's origin.
    const m = /^vapid t=([^,]+), k=(.+)$/.exec(String(r.headers.authorization));
    expect(m?.[2]).toBe(key.body.public_key);
    const [h, c, s] = m![1]!.split(".");
    const claims = JSON.parse(Buffer.from(c!, "base64url").toString("utf8"));
    expect(claims.aud).toBe(pushUrl);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    const pub = Buffer.from(key.body.public_key, "base64url");
    const jwk = {
      kty: "EC",
      crv: "P-256",
      x: pub.subarray(1, 33).toString("base64url"),
      y: pub.subarray(33).toString("base64url"),
    };
    expect(
      verify(
        "sha256",
        Buffer.from(`${h}.${c}`),
        { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
        Buffer.from(s!, "base64url"),
      ),
    ).toBe(true);
  });

  it("your own message sends you nothing", async () => {
    const d = device(`${pushUrl}/ana-laptop`);
    expect((await subscribe(ana, d.json)).status).toBe(201);
    await say(ana, "talking to myself");
    await settled();
    expect(received.filter((x) => x.path === "/ana-laptop")).toEqual([]);
    await say(dan, "not to myself");
    await waitFor(() => received.find((x) => x.path === "/ana-laptop"), 5000, "Dan's message to Ana");
    expect((d.decrypt(received.find((x) => x.path === "/ana-laptop")!.body) as { body: string }).body).toBe(
      "not to myself",
    );
  });

  it("a muted conversation sends nothing; the list says it is muted; unmuted, it sends again", async () => {
    const d = device(`${pushUrl}/dan-muted`);
    await subscribe(dan, d.json);
    const muted = await write("PUT", `/v1/conversations/${DM}/mute`, dan, { muted: true });
    expect(muted).toEqual({ status: 200, body: { conversation_id: DM, muted: true } });
    const list = await getJson(`${t.url}/v1/conversations`, dan);
    expect(list.body.items.find((c: { conversation_id: string }) => c.conversation_id === DM).muted).toBe(true);
    // Muting is Dan's alone: Ana's list does not say it.
    const anas = await getJson(`${t.url}/v1/conversations`, ana);
    expect(anas.body.items.find((c: { conversation_id: string }) => c.conversation_id === DM).muted).toBeUndefined();

    await say(ana, "while muted");
    await settled();
    expect(received.filter((x) => x.path === "/dan-muted")).toEqual([]);

    expect((await write("PUT", `/v1/conversations/${DM}/mute`, dan, { muted: false })).body.muted).toBe(false);
    await say(ana, "after unmuting");
    await waitFor(() => received.find((x) => x.path === "/dan-muted"), 5000, "the push after unmuting");
    expect(
      received.filter((x) => x.path === "/dan-muted").map((x) => (d.decrypt(x.body) as { body: string }).body),
    ).toEqual(["after unmuting"]);
  });

  it.each([410, 404])("a push service answering %i removes the subscription", async (status) => {
    const path = `/gone-${status}`;
    answers.set(path, status);
    const d = device(`${pushUrl}${path}`);
    await subscribe(dan, d.json);
    expect(subscriptionCount(d.endpoint)).toBe(1);
    await say(ana, `ping ${status}`);
    await waitFor(() => subscriptionCount(d.endpoint) === 0, 5000, "the subscription to be removed");
    // Gone for good: the next message is not sent there.
    const before = received.filter((x) => x.path === path).length;
    await say(ana, "again");
    await settled();
    expect(received.filter((x) => x.path === path).length).toBe(before);
  });

  it("unsubscribing removes only my own subscription", async () => {
    const d = device(`${pushUrl}/dan-tablet`);
    await subscribe(dan, d.json);
    expect((await write("DELETE", "/v1/push/subscriptions", ana, { endpoint: d.endpoint })).body).toEqual({
      removed: false,
    });
    expect(subscriptionCount(d.endpoint)).toBe(1);
    expect((await write("DELETE", "/v1/push/subscriptions", dan, { endpoint: d.endpoint })).body).toEqual({
      removed: true,
    });
    expect(subscriptionCount(d.endpoint)).toBe(0);
  });

  it("an endpoint subscribed by someone else moves to them", async () => {
    const d = device(`${pushUrl}/shared-desk`);
    await subscribe(dan, d.json);
    const again = await subscribe(ana, d.json);
    expect(again.body.created).toBe(true);
    const row = t.server.db
      .prepare("SELECT entity_id FROM gateway_push_subscriptions WHERE endpoint = ?")
      .get(d.endpoint) as { entity_id: string };
    expect(row.entity_id).toBe("ent_human_ana");
  });

  it("refuses bad subscriptions and mutes with the standard error shape", async () => {
    const good = device("https://push.example.net/abc").json;
    const bad: Array<[string, unknown, string]> = [
      ["no keys", { endpoint: good.endpoint }, "keys"],
      ["plain http to a public host", { ...good, endpoint: "http://push.example.net/abc" }, "endpoint"],
      ["an address on the local network", { ...good, endpoint: "https://10.0.0.7/push" }, "endpoint"],
      ["a host with no domain", { ...good, endpoint: "https://intranet/push" }, "endpoint"],
      ["credentials in the URL", { ...good, endpoint: "https://me:pw@push.example.net/abc" }, "endpoint"],
      ["not a URL", { ...good, endpoint: "push me" }, "endpoint"],
      ["an endpoint over the limit", { ...good, endpoint: `https://push.example.net/${"a".repeat(2048)}` }, "endpoint"],
      ["a short p256dh", { ...good, keys: { ...good.keys, p256dh: "AAAA" } }, "p256dh"],
      ["an auth that is not base64url", { ...good, keys: { ...good.keys, auth: "+".repeat(22) } }, "auth"],
      ["an unknown field", { ...good, extra: 1 }, "extra"],
    ];
    for (const [what, body, field] of bad) {
      const r = await subscribe(dan, body);
      expect(r.status, what).toBe(400);
      expect(r.body.error.code, what).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(r.body.error), what).toContain(field);
    }
    // A loopback endpoint is refused by a server not told to allow it (production).
    const prod = await startTestServer();
    try {
      const r = await fetch(`${prod.url}/v1/push/subscriptions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${prod.demo.humans[0]!.token}`,
          "content-type": "application/json",
          "idempotency-key": "k-loop",
        },
        body: JSON.stringify(device(`${pushUrl}/x`).json),
      });
      expect(r.status).toBe(400);
    } finally {
      await prod.close();
    }
    const noKey = await fetch(`${t.url}/v1/push/subscriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${dan}`, "content-type": "application/json" },
      body: JSON.stringify(good),
    });
    expect(noKey.status).toBe(400);
    expect((await write("DELETE", "/v1/push/subscriptions", dan, {})).status).toBe(400);
    expect((await write("PUT", `/v1/conversations/${DM}/mute`, dan, { muted: "yes" })).status).toBe(400);
    expect((await write("PUT", "/v1/conversations/cnv_unknown/mute", dan, { muted: true })).status).toBe(404);
    // Ana is not in Dan's chat with the agent: she cannot mute it (nor learn it exists).
    expect((await write("PUT", "/v1/conversations/cnv_9f2a/mute", ana, { muted: true })).status).toBe(404);
    expect((await getJson(`${t.url}/v1/push/vapid-public-key`, "llt_not_a_token")).status).toBe(401);
  });
});

describe("VAPID keys", () => {
  it("are generated once into the data dir and reused after a restart", async () => {
    const first = await startTestServer({ keep: true });
    const key1 = (await getJson(`${first.url}/v1/push/vapid-public-key`, first.demo.humans[0]!.token)).body.public_key;
    await first.close();
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const key2 = (await getJson(`${second.url}/v1/push/vapid-public-key`, second.demo.humans[0]!.token)).body
        .public_key;
      expect(key2).toBe(key1);
    } finally {
      await second.close();
    }
  });
});
