import { randomBytes } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../ledger/helpers.js";
import { newPgDatabase, stopSharedPostgres } from "../ledger/pg/pg-helpers.js";
import { type Frame, openStream, timelineOf } from "../support/golden.js";
import { afterThisTest, startPgProcess } from "../support/process.js";
import { getJson, postJson, waitFor } from "../support/server.js";

/**
 * Two real LogLine processes (`src/main.ts`) on one PostgreSQL database, each with its own data
 * dir holding the same keys: a post through one reaches the other's event streams under the same
 * `id:`, a stream resumed on the other with the first one's Last-Event-ID misses nothing, and an
 * Idempotency-Key sent to one then the other makes one post; a session made on one works on the
 * other at once, and ended on the other it is refused on the first within a second; one rate
 * budget holds across both; and a process that cannot follow the database answers /readyz 503.
 */

afterAll(() => stopSharedPostgres());

const TENANT = "tnt_acme_001";
const CONV = "cnv_9f2a";
/** What every process on one database must share: the ledger's signing key, the vault's key, the Web Push keys. */
const SHARED_KEYS = ["ledger-signing-key.pem", "office-vault.key", "push-vapid-keys.json"];

type Demo = { humans: Array<{ token: string; entity_id: string }> };

/**
 * Two processes on a new database named `name`: A seeds the demo, B starts on A's keys. Their
 * data dirs go after the test.
 */
async function twoProcesses(name: string, env: Record<string, string> = {}) {
  const url = await newPgDatabase(name);
  const dirA = tempDir(`${name}-a-`);
  const dirB = tempDir(`${name}-b-`);
  afterThisTest(() => {
    dirA.cleanup();
    dirB.cleanup();
  });
  const a = await startPgProcess(url, dirA.dir, { demo: true, env });
  for (const f of SHARED_KEYS) copyFileSync(join(dirA.dir, f), join(dirB.dir, f));
  const b = await startPgProcess(url, dirB.dir, { demo: false, env });
  const demo = JSON.parse(readFileSync(join(dirA.dir, "demo.json"), "utf8")) as Demo;
  return { url, a, b, demo };
}

/** A write carrying the Idempotency-Key a public route (no token) needs. */
async function anonPost(url: string, body: unknown, key = `k-anon-${randomBytes(12).toString("hex")}`) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const statusOf = async (base: string, token: string) =>
  (await fetch(`${base}/v1/session`, { headers: { authorization: `Bearer ${token}` } })).status;

/** The `id:` of the group carrying the event: the first id on or after its timeline frame. */
function idOf(frames: Frame[], eventId: string): string | undefined {
  const at = frames.findIndex((f) => f.event === "timeline.append" && f.data.item.event_id === eventId);
  return at < 0 ? undefined : frames.slice(at).find((f) => f.id)?.id;
}

describe("two processes on one PostgreSQL", () => {
  it("share streams, resume cursors and Idempotency-Keys", async () => {
    const { a, b, demo } = await twoProcesses("two");
    // Sessions are shared: the token the demo made on A works on B.
    const danA = demo.humans[0]!.token;
    const danB = danA;

    // A post through A reaches a stream on B under the id it has on A.
    const onA = openStream(a.base, { token: danA });
    const onB = openStream(b.base, { token: danB });
    await onA.waitFor((f) => f.event === "hello");
    await onB.waitFor((f) => f.event === "hello");
    const sent = await postJson(`${a.base}/v1/conversations/${CONV}/messages`, danA, {
      kind: "text",
      body_text: "hello from A",
    });
    expect(sent.status).toBe(202);
    const eventId = sent.body.created_event_ids?.[0] ?? sent.body.event_id;
    expect(eventId).toBeTypeOf("string");
    const seen = (f: Frame) => f.event === "timeline.append" && f.data.item.event_id === eventId;
    await onA.waitFor(seen, 10_000, "the post on A");
    await onB.waitFor(seen, 10_000, "the post on B");
    await onA.waitFor(() => idOf(onA.frames, eventId) !== undefined, 10_000);
    await onB.waitFor(() => idOf(onB.frames, eventId) !== undefined, 10_000);
    expect(idOf(onB.frames, eventId)).toBe(idOf(onA.frames, eventId));
    onB.close();

    // A client of A that loses A reconnects to B with A's Last-Event-ID and misses nothing.
    const cursor = onA.lastId();
    onA.close();
    const later: string[] = [];
    for (const text of ["while away 1", "while away 2"]) {
      const r = await postJson(`${a.base}/v1/conversations/${CONV}/messages`, danA, { kind: "text", body_text: text });
      expect(r.status).toBe(202);
      later.push(r.body.created_event_ids?.[0] ?? r.body.event_id);
    }
    const resumed = openStream(b.base, { token: danB, lastEventId: cursor });
    for (const id of later) await resumed.waitFor((f) => f.event === "timeline.append" && f.data.item.event_id === id);
    resumed.close();
    const before = onA.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
    const after = resumed.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    // Everything in the timeline from A's last frame to the resumed stream's last one, in order, once.
    const all = (await timelineOf(b.base, danB, CONV)).map((i) => i.event_id);
    const from = all.indexOf(before.at(-1)!);
    const to = all.indexOf(after.at(-1)!);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(after).toEqual(all.slice(from + 1, to + 1));

    // One Idempotency-Key sent to A, then to B: one post, and B replays A's answer.
    const body = { kind: "text", body_text: "exactly once across processes" };
    const first = await postJson(`${a.base}/v1/conversations/${CONV}/messages`, danA, body, "cross-process-key-1");
    const retry = await postJson(`${b.base}/v1/conversations/${CONV}/messages`, danB, body, "cross-process-key-1");
    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    const posts = (await timelineOf(b.base, danB, CONV)).filter((i) => i.message?.body_text === body.body_text);
    expect(posts).toHaveLength(1);

    expect((await fetch(`${b.base}/readyz`)).status).toBe(200);
  }, 90_000);

  it("share sessions: made on one, used on the other at once; ended on one, refused on the other within a second", async () => {
    const { a, b, demo } = await twoProcesses("sessions");
    const dan = demo.humans[0]!.token;
    const ana = demo.humans[1]!.token;

    // A sign-in link made on A signs in on B, once; the new session works on A at once.
    const link = await postJson(`${a.base}/v1/sign-in-links`, dan, {});
    expect(link.status).toBe(201);
    const code = /#(lnk_[A-Za-z0-9_-]{43})$/.exec(link.body.url as string)![1];
    const phone = await anonPost(`${b.base}/v1/sign-in-links/redeem`, { code });
    expect(phone.status, JSON.stringify(phone.body)).toBe(201);
    const again = await anonPost(`${a.base}/v1/sign-in-links/redeem`, { code });
    expect(again.body.error.code).toBe("SIGNIN_LINK_USED");
    expect(await statusOf(a.base, phone.body.token)).toBe(200);
    const onA = (await getJson(`${a.base}/v1/sessions`, dan)).body.sessions.map((s: any) => s.session_id);
    expect(onA).toContain(phone.body.session_id);

    // An invite made on B is accepted on A, once; its token works on B.
    const inv = await postJson(`${b.base}/v1/invites`, dan, { display_name: "Pia", roles: ["member"] });
    expect(inv.status).toBe(201);
    const invite = inv.body.invite_token as string;
    expect((await fetch(`${a.base}/v1/invites/${invite}`)).status).toBe(200);
    const pia = await anonPost(`${a.base}/v1/invites/${invite}/accept`, { display_name: "Pia" });
    expect(pia.status).toBe(201);
    expect((await anonPost(`${b.base}/v1/invites/${invite}/accept`, { display_name: "Mallory" })).status).toBe(404);
    expect(await statusOf(b.base, pia.body.token)).toBe(200);

    // Both processes know Ana's token (each has it cached); she signs out on B: A refuses it within a second.
    expect(await statusOf(a.base, ana)).toBe(200);
    expect(await statusOf(b.base, ana)).toBe(200);
    const out = await fetch(`${b.base}/v1/session`, { method: "DELETE", headers: { authorization: `Bearer ${ana}` } });
    expect(out.status).toBeLessThan(300);
    expect(await statusOf(b.base, ana)).toBe(401);
    const signedOut = performance.now();
    await waitFor(async () => ((await statusOf(a.base, ana)) === 401 ? true : undefined), 5_000, "A refusing");
    expect(performance.now() - signedOut).toBeLessThan(1_500);

    // The phone's session, ended from Dan's session on A, is refused on B within a second.
    expect(await statusOf(b.base, phone.body.token)).toBe(200);
    const ended = await fetch(`${a.base}/v1/sessions/${phone.body.session_id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${dan}`, "idempotency-key": "end-phone" },
    });
    expect(ended.status).toBe(200);
    const endedAt = performance.now();
    await waitFor(async () => ((await statusOf(b.base, phone.body.token)) === 401 ? true : undefined), 5_000, "B");
    expect(performance.now() - endedAt).toBeLessThan(1_500);
    expect(await statusOf(b.base, dan)).toBe(200);
  }, 90_000);

  it("hold a token flooding both to one rate budget, not one per process", async () => {
    // A burst of 20 writes, refilled at one a second.
    const limits = { RATE_LIMIT_BURST: "20", RATE_LIMIT_PER_MINUTE: "60" };
    const { a, b, demo } = await twoProcesses("limits", limits);
    const dan = demo.humans[0]!.token;

    // 40 posts at each process at once: each process alone would let 20 through, 40 in all.
    const started = performance.now();
    const sent = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        postJson(`${(i % 2 ? b : a).base}/v1/conversations/${CONV}/messages`, dan, {
          kind: "text",
          body_text: `flood ${i}`,
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const accepted = sent.filter((r) => r.status === 202);
    const refused = sent.filter((r) => r.status === 429);
    expect(accepted.length + refused.length).toBe(80);
    expect(refused[0]!.body.error.code).toBe("RATE_LIMITED");
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // One budget: the burst plus what refilled while the flood lasted.
    expect(accepted.length).toBeGreaterThanOrEqual(20);
    expect(accepted.length).toBeLessThanOrEqual(20 + Math.ceil(seconds));
    expect(accepted.length).toBeLessThan(40);
    // Each accepted post is in the timeline once, whichever process took it.
    await waitFor(
      async () =>
        (await timelineOf(b.base, dan, CONV)).filter((m) => m.message?.body_text?.startsWith("flood ")).length ===
        accepted.length
          ? true
          : undefined,
      10_000,
      "the accepted posts on B",
    );
  }, 90_000);

  it("runs Office in the lease holder only; when it is killed the other takes over and answers the inbox, once each", async () => {
    const { url, a, b, demo } = await twoProcesses("lease");
    const db = new pg.Pool({ connectionString: url, max: 1 });
    afterThisTest(() => db.end());
    const danB = demo.humans[0]!.token;
    const holder = async () => {
      const { rows } = await db.query<{ name: string }>(
        `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'logline-office-lease-%'`,
      );
      return rows.map((r) => Number(r.name.slice("logline-office-lease-".length)));
    };
    // The first process booted holds the lease, alone.
    expect(await holder()).toEqual([a.child.pid]);

    // The holder dies; what B accepts meanwhile waits in the inbox until B holds the lease.
    a.child.kill("SIGKILL");
    const asked: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await postJson(`${b.base}/v1/conversations/${CONV}/messages`, danB, {
        kind: "text",
        body_text: `Can you schedule a 30-min call with Maria next week? (${i})`,
      });
      expect(r.status).toBe(202);
      asked.push(r.body.created_event_ids[0]);
    }
    await waitFor(async () => ((await holder())[0] === b.child.pid ? true : undefined), 15_000, "B holding the lease");
    const answers = async () => {
      const { rows } = await db.query<{ cause: string; n: number }>(
        `SELECT payload::jsonb->>'causation_id' AS cause, count(*)::int AS n FROM ledger.events
         WHERE tenant_id = $1 AND actor_type = 'agent' AND payload::jsonb->>'causation_id' = ANY($2) GROUP BY 1`,
        [TENANT, asked],
      );
      return new Map(rows.map((r) => [r.cause, r.n]));
    };
    await waitFor(async () => ((await answers()).size === asked.length ? true : undefined), 20_000, "answers");
    const inbox = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM office.inbox");
    expect(inbox.rows[0]!.n).toBe(0);
    // Each message was answered once: one answer caused by it, never a second.
    await new Promise((r) => setTimeout(r, 500));
    expect([...(await answers()).values()]).toEqual(asked.map(() => 1));
  }, 90_000);

  it("a process whose following stalls answers /readyz 503 past 5 s behind, and 200 once it catches up", async () => {
    const url = await newPgDatabase("lag");
    const dir = tempDir("lag-");
    afterThisTest(() => dir.cleanup());
    const one = await startPgProcess(url, dir.dir, { demo: true });
    const owner = new pg.Client({ connectionString: url });
    await owner.connect();
    afterThisTest(() => owner.end());
    const ready = async () => {
      const res = await fetch(`${one.base}/readyz`);
      return { status: res.status, body: (await res.json()) as any };
    };
    /** The first /readyz answer with `status`, within 20 s. */
    const readyWith = (status: number) =>
      waitFor(
        async () => {
          const r = await ready();
          return r.status === status ? r : undefined;
        },
        20_000,
        `/readyz ${status}`,
      );
    expect((await ready()).status).toBe(200);

    // The heads cannot be read while this transaction holds them: the process's once-a-second
    // comparison waits, and it can no longer tell it is caught up.
    await owner.query("BEGIN");
    await owner.query("LOCK TABLE ledger.heads IN ACCESS EXCLUSIVE MODE");
    const stalled = await readyWith(503);
    expect(stalled.body.checks.follow.ok).toBe(false);
    expect(stalled.body.checks.follow.lag_seconds).toBeGreaterThanOrEqual(5);
    expect(stalled.body.checks.boot.ok).toBe(true);
    await owner.query("ROLLBACK");
    const back = await readyWith(200);
    expect(back.body.checks.follow.ok).toBe(true);
  }, 120_000);
});
