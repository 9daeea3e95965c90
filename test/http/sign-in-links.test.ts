import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtp, type FakeSmtp } from "../office/mail/smtp-fixture.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * Signing in anywhere, over real HTTP: a one-time link from a signed-in device makes a new
 * session of the same person once; a used, expired or unknown link makes none; sessions are
 * listed and ended (the token fails at once and its open stream ends); a sign-in link by email
 * through a real SMTP server, with the same answer for unknown addresses, and limits.
 */
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const anonKey = () => `k-anon-${randomBytes(12).toString("hex")}`;

let t: TestServer;
let smtp: FakeSmtp;
let dan: { entity_id: string; token: string };
let ana: { entity_id: string; token: string };

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({
    connectors: { mail: { url: smtp.url, from: { name: "Acme Office", address: "office@example.com" } } },
    signIn: {
      perAddress: { capacity: 3, refillPerSecond: 0.001 },
      perClient: { capacity: 12, refillPerSecond: 0.001 },
    },
  });
  dan = demoPerson(t, "Dan");
  ana = demoPerson(t, "Ana");
}, 30_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function redeem(code: unknown, opts: { key?: string; ua?: string; extra?: object } = {}) {
  const res = await fetch(`${t.url}/v1/sign-in-links/redeem`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "idempotency-key": opts.key ?? anonKey(),
      "user-agent": opts.ua ?? IPHONE,
    },
    body: JSON.stringify({ code, ...opts.extra }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function emailLink(email: unknown, key = anonKey()) {
  const res = await fetch(`${t.url}/v1/sign-in-links/email`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ email }),
  });
  return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get("retry-after") };
}

const codeOf = (url: string) => /#(lnk_[A-Za-z0-9_-]{43})$/.exec(url)![1]!;

describe("a sign-in link for another device", () => {
  it("signs the same person in once, as a new session with the same conversations; a second use is refused", async () => {
    const made = await postJson(`${t.url}/v1/sign-in-links`, dan.token, {});
    expect(made.status).toBe(201);
    expect(made.body.url).toMatch(new RegExp(`^${t.url}/signin/link#lnk_[A-Za-z0-9_-]{43}$`));
    expect(made.body.ttl_seconds).toBe(600);
    expect(Date.parse(made.body.expires_at) - t.clock.now()).toBeGreaterThan(590_000);
    const svg = Buffer.from(made.body.qr_data_url.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString(
      "utf8",
    );
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const before = (await getJson(`${t.url}/v1/sessions`, dan.token)).body.sessions.length;
    const key = anonKey();
    const first = await redeem(codeOf(made.body.url), { key });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ entity_id: dan.entity_id, tenant_id: "tnt_acme_001", display_name: "Dan" });
    expect(first.body.token).not.toBe(dan.token);

    // The new token is Dan: same entity, same conversations.
    const me = await getJson(`${t.url}/v1/session`, first.body.token);
    expect(me.body.entity_id).toBe(dan.entity_id);
    const ids = (tok: string) =>
      getJson(`${t.url}/v1/conversations`, tok).then((r) => r.body.items.map((c: any) => c.conversation_id).sort());
    expect(await ids(first.body.token)).toEqual(await ids(dan.token));

    // The same request again (same Idempotency-Key) is the same session, not a second one.
    const replay = await redeem(codeOf(made.body.url), { key });
    expect(replay.status).toBe(201);
    expect(replay.body.session_id).toBe(first.body.session_id);
    // Any other use is refused by name, and makes no session.
    const second = await redeem(codeOf(made.body.url));
    expect(second.status).toBe(410);
    expect(second.body.error.code).toBe("SIGNIN_LINK_USED");
    expect((await getJson(`${t.url}/v1/sessions`, dan.token)).body.sessions.length).toBe(before + 1);
  });

  it("lists my sessions with the device, how I signed in and this one marked; ending one ends its requests and its stream", async () => {
    const made = await postJson(`${t.url}/v1/sign-in-links`, dan.token, {});
    const phone = await redeem(codeOf(made.body.url));
    const list = await getJson(`${t.url}/v1/sessions`, phone.body.token);
    expect(list.status).toBe(200);
    const mine = list.body.sessions.find((s: any) => s.session_id === phone.body.session_id);
    expect(mine).toMatchObject({ device: "Safari on iOS (iPhone)", signed_in_via: "device_link", current: true });
    expect(list.body.sessions.filter((s: any) => s.current)).toHaveLength(1);
    // Ana sees only her own sessions, and cannot end Dan's.
    const anas = await getJson(`${t.url}/v1/sessions`, ana.token);
    expect(anas.body.sessions.map((s: any) => s.session_id)).not.toContain(phone.body.session_id);
    const foreign = await fetch(`${t.url}/v1/sessions/${phone.body.session_id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ana.token}`, "idempotency-key": anonKey() },
    });
    expect(foreign.status).toBe(404);

    // The phone holds a live stream.
    const ctl = new AbortController();
    const res = await fetch(`${t.url}/v1/stream`, {
      headers: { authorization: `Bearer ${phone.body.token}` },
      signal: ctl.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("event: hello");

    // Dan ends it from his other session.
    const ended = await fetch(`${t.url}/v1/sessions/${phone.body.session_id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan.token}`, "idempotency-key": anonKey() },
    });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ session_id: phone.body.session_id, ended: true, current: false });
    const t0 = Date.now();
    for (;;) {
      const r = await Promise.race([
        reader.read(),
        new Promise<"timeout">((ok) => setTimeout(() => ok("timeout"), 2000)),
      ]);
      expect(r).not.toBe("timeout");
      if (r !== "timeout" && r.done) break;
    }
    expect(Date.now() - t0).toBeLessThan(1500);
    expect((await getJson(`${t.url}/v1/session`, phone.body.token)).status).toBe(401);
    expect(
      (await getJson(`${t.url}/v1/sessions`, dan.token)).body.sessions.map((s: any) => s.session_id),
    ).not.toContain(phone.body.session_id);
    ctl.abort();
  });

  it("refuses bad input in the standard shape", async () => {
    expect((await redeem("not-a-code")).body.error.code).toBe("VALIDATION_ERROR");
    expect((await redeem(`lnk_${"A".repeat(43)}`)).status).toBe(404);
    expect((await redeem(`lnk_${"A".repeat(43)}`, { extra: { entity_id: dan.entity_id } })).status).toBe(400);
    expect((await redeem(`lnk_${"A".repeat(43)}`, { key: "short" })).status).toBe(400);
    const noKey = await fetch(`${t.url}/v1/sign-in-links/redeem`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: `lnk_${"A".repeat(43)}` }),
    });
    expect(noKey.status).toBe(400);
    expect((await postJson(`${t.url}/v1/sign-in-links`, dan.token, { entity_id: ana.entity_id })).status).toBe(400);
    const badId = await fetch(`${t.url}/v1/sessions/ses_nope`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan.token}`, "idempotency-key": anonKey() },
    });
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as any).error.code).toBe("VALIDATION_ERROR");
    const unknown = await fetch(`${t.url}/v1/sessions/ses_${"0".repeat(24)}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan.token}`, "idempotency-key": anonKey() },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("a sign-in link by email", () => {
  it("mails the person a link that signs them in; an unknown address gets the same answer and no mail", async () => {
    expect((await getJson(`${t.url}/v1/sign-in-options`, "")).body).toEqual({
      email_links: true,
      link_ttl_seconds: 600,
    });
    const res = await fetch(`${t.url}/v1/me/email`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${ana.token}`,
        "content-type": "application/json",
        "idempotency-key": anonKey(),
      },
      body: JSON.stringify({ email: "ana@example.com" }),
    });
    expect(res.status).toBe(200);

    const known = await emailLink("Ana@Example.com");
    const unknown = await emailLink("nobody@example.com");
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);

    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes("ana@example.com")),
      5000,
      "the sign-in email",
    );
    expect(mail.from).toBe("office@example.com");
    expect(mail.mail.subject).toBe("Your LogLine sign-in link");
    expect(mail.mail.text).toContain("Hello Ana,");
    const url = /(http\S+\/signin\/link#lnk_[A-Za-z0-9_-]{43})/.exec(mail.mail.text ?? "")![1]!;
    const signedIn = await redeem(codeOf(url));
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.entity_id).toBe(ana.entity_id);
    expect((await redeem(codeOf(url))).body.error.code).toBe("SIGNIN_LINK_USED");
    const sessions = (await getJson(`${t.url}/v1/sessions`, signedIn.body.token)).body.sessions;
    expect(sessions.find((s: any) => s.current).signed_in_via).toBe("email_link");

    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received).toHaveLength(1);
  });

  it("refuses what is not an address, and limits requests per address whether or not it is known", async () => {
    const bad = await emailLink("not an address");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    expect((await emailLink(`${"x".repeat(300)}@example.com`)).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await emailLink("stranger@example.com")).status).toBe(202);
    const over = await emailLink("stranger@example.com");
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("RATE_LIMITED");
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    // Per client too: 12 per window from one address, whatever is asked for.
    let refused = 0;
    for (let i = 0; i < 8; i++) if ((await emailLink(`someone${i}@example.com`)).status === 429) refused++;
    expect(refused).toBeGreaterThan(0);
  });
});

describe("expiry and a server without mail", () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startTestServer({ signIn: { linkTtlMs: 400 } });
  }, 30_000);
  afterAll(() => short?.close());

  it("an expired link is refused by name and makes no session; email links are not offered", async () => {
    const d = demoPerson(short, "Dan");
    const made = await postJson(`${short.url}/v1/sign-in-links`, d.token, {});
    expect(made.body.ttl_seconds).toBe(1);
    await new Promise((r) => setTimeout(r, 600));
    const res = await fetch(`${short.url}/v1/sign-in-links/redeem`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": anonKey() },
      body: JSON.stringify({ code: codeOf(made.body.url) }),
    });
    expect(res.status).toBe(410);
    expect(((await res.json()) as any).error.code).toBe("SIGNIN_LINK_EXPIRED");
    expect((await getJson(`${short.url}/v1/sessions`, d.token)).body.sessions).toHaveLength(1);

    expect((await getJson(`${short.url}/v1/sign-in-options`, "")).body.email_links).toBe(false);
    const mail = await fetch(`${short.url}/v1/sign-in-links/email`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": anonKey() },
      body: JSON.stringify({ email: "dan@example.com" }),
    });
    expect(mail.status).toBe(503);
  });
});
