import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPgLedger } from "../../src/ledger/pg/pg-ledger.js";
import { newId } from "../../src/shared/ids.js";
import { cardFrame, click, openStream, timelineOf } from "../support/golden.js";
import { newPgDatabase, stopSharedPostgres } from "../ledger/pg/pg-helpers.js";
import { getJson, postJson, startPgTestServer, startTestServer } from "../support/server.js";

/**
 * The same HTTP paths on both backends: the SQLite server, and the server booted on PostgreSQL
 * (DATABASE_URL: the ledger, Idempotency-Keys, sessions and Office's inbox in the database). On PostgreSQL
 * an append made by another writer on the same database (as another process would) reaches this
 * server's projections and its event streams through the follower.
 */

afterAll(() => stopSharedPostgres());

interface Started {
  url: string;
  dan: string;
  close(): Promise<void>;
  /** PostgreSQL only: the database's URL and the server's data dir (its signing key). */
  pg?: { url: string; dataDir: string };
}

const backends: Array<[string, () => Promise<Started>]> = [
  [
    "SQLite",
    async () => {
      const t = await startTestServer();
      return { url: t.url, dan: t.demo.humans[0]!.token, close: () => t.close() };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const url = await newPgDatabase("server");
      const t = await startPgTestServer(url);
      if (!t.demo) throw new Error("demo was not seeded");
      return { url: t.url, dan: t.demo.humans[0]!.token, close: () => t.close(), pg: { url, dataDir: t.dataDir } };
    },
  ],
];

describe.each(backends)("HTTP on %s", (_name, startServer) => {
  it("runs the golden path over SSE, and a cut stream resumes with nothing lost or repeated", async () => {
    const t = await startServer();
    try {
      const s1 = openStream(t.url, { token: t.dan });
      const hello = await s1.waitFor((f) => f.event === "hello");
      expect(hello.data.tenant_id).toBe("tnt_acme_001");
      const sent = await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, t.dan, {
        kind: "text",
        body_text: "Can you schedule a 30-min call with Maria next week?",
      });
      expect(sent.status).toBe(202);
      const formalize = (await s1.waitFor(cardFrame("job.formalize"), 10_000)).data.item.message.card;
      expect((await click(t.url, t.dan, formalize, "job.approve")).status).toBe(202);
      const tracking = (await s1.waitFor(cardFrame("job.tracking"), 10_000)).data.item.message.card;
      await s1.waitFor((f) => f.event === "job.update" && f.data.job.state === "waiting_input");
      const resumeFrom = s1.lastId();
      s1.close();
      const before = s1.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
      expect((await click(t.url, t.dan, tracking, "job.provide_input")).status).toBe(202);

      const s2 = openStream(t.url, { token: t.dan, lastEventId: resumeFrom });
      const finished = (await s2.waitFor(cardFrame("job.finished"), 10_000, "finished card")).data.item.message.card;
      expect(finished.job_id).toBe(formalize.job_id);
      await s2.waitFor((f) => f.event === "job.update" && f.data.job.state === "completed");
      await new Promise((r) => setTimeout(r, 200));
      s2.close();
      const after = s2.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
      const all = [...before, ...after];
      expect(new Set(all).size).toBe(all.length);
      expect(all).toEqual((await timelineOf(t.url, t.dan, "cnv_9f2a")).map((i) => i.event_id));
    } finally {
      await t.close();
    }
  });

  it("answers one Idempotency-Key once: the retry replays, another body is refused", async () => {
    const t = await startServer();
    try {
      const url = `${t.url}/v1/conversations/cnv_9f2a/messages`;
      const first = await postJson(url, t.dan, { kind: "text", body_text: "once" }, "key-once-1");
      expect(first.status).toBe(202);
      const again = await postJson(url, t.dan, { kind: "text", body_text: "once" }, "key-once-1");
      expect(again.status).toBe(202);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      const other = await postJson(url, t.dan, { kind: "text", body_text: "twice" }, "key-once-1");
      expect(other.status).toBe(422);
      const texts = (await timelineOf(t.url, t.dan, "cnv_9f2a")).filter((i) => i.message?.body_text === "once");
      expect(texts).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it("refuses a write without a token and a malformed body, in the standard error shape", async () => {
    const t = await startServer();
    try {
      const anon = await fetch(`${t.url}/v1/conversations/cnv_9f2a/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "k-anon-0001" },
        body: JSON.stringify({ kind: "text", body_text: "hi" }),
      });
      expect(anon.status).toBe(401);
      expect((await anon.json()).error.code).toBeTypeOf("string");
      const bad = await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, t.dan, { kind: "text" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("VALIDATION_ERROR");
      expect((await getJson(`${t.url}/v1/conversations`, t.dan)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("keeps sessions: a link signs in once, an invite is accepted once, ended sessions and signed-out tokens are refused", async () => {
    const t = await startServer();
    const anon = async (path: string, body: unknown, key: string) => {
      const res = await fetch(`${t.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const statusOf = async (token: string) =>
      (await fetch(`${t.url}/v1/session`, { headers: { authorization: `Bearer ${token}` } })).status;
    try {
      const link = await postJson(`${t.url}/v1/sign-in-links`, t.dan, {});
      expect(link.status).toBe(201);
      const code = /#(lnk_[A-Za-z0-9_-]{43})$/.exec(link.body.url as string)![1];
      const phone = await anon("/v1/sign-in-links/redeem", { code }, "k-anon-redeem-0001");
      expect(phone.status).toBe(201);
      expect((await anon("/v1/sign-in-links/redeem", { code }, "k-anon-redeem-0002")).body.error.code).toBe(
        "SIGNIN_LINK_USED",
      );
      const sessions = (await getJson(`${t.url}/v1/sessions`, t.dan)).body.sessions.map((s: any) => s.session_id);
      expect(sessions).toContain(phone.body.session_id);

      const inv = await postJson(`${t.url}/v1/invites`, t.dan, { display_name: "Pia", roles: ["member"] });
      expect(inv.status).toBe(201);
      const pia = await anon(
        `/v1/invites/${inv.body.invite_token}/accept`,
        { display_name: "Pia" },
        "k-anon-invite-0001",
      );
      expect(pia.status).toBe(201);
      expect(
        (await anon(`/v1/invites/${inv.body.invite_token}/accept`, { display_name: "Pia" }, "k-anon-invite-0002"))
          .status,
      ).toBe(404);
      expect(await statusOf(pia.body.token)).toBe(200);

      const ended = await fetch(`${t.url}/v1/sessions/${phone.body.session_id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${t.dan}`, "idempotency-key": "end-phone-0001" },
      });
      expect(ended.status).toBe(200);
      expect(await statusOf(phone.body.token)).toBe(401);
      await fetch(`${t.url}/v1/session`, { method: "DELETE", headers: { authorization: `Bearer ${pia.body.token}` } });
      expect(await statusOf(pia.body.token)).toBe(401);
      expect(await statusOf(t.dan)).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("PostgreSQL: a commit by another writer on the database", () => {
  it("reaches this server's timeline and its event stream, with the next seq as id", async () => {
    const url = await newPgDatabase("follow");
    const t = await startPgTestServer(url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    // Another process's ledger: the same database and signing key, its own fold and connections.
    const other = await createPgLedger({ pool, dataDir: t.dataDir, clock: t.clock });
    try {
      const dan = t.demo!.humans[0]!.token;
      const s = openStream(t.url, { token: dan });
      const hello = await s.waitFor((f) => f.event === "hello");
      const head = Number(hello.data.cursor.slice(4));
      const eventId = newId("evt", t.clock.now());
      await other.append({
        tenant_id: "tnt_acme_001",
        events: [
          {
            event_id: eventId,
            event_type: "message.sent",
            ts: t.clock.iso(),
            tenant_id: "tnt_acme_001",
            trace_id: newId("trc", t.clock.now()),
            conversation_id: "cnv_9f2a",
            actor: { entity_id: "ent_human_dan", actor_type: "human" },
            payload: { message_id: newId("msg", t.clock.now()), kind: "text", body_text: "from another process" },
          },
        ],
      });
      await s.waitFor((f) => f.event === "timeline.append" && f.data.item.event_id === eventId);
      // The group of frames the event made carries its seq as id (on its last frame).
      await s.waitFor((f) => f.id === `seq:${head + 1}`);
      s.close();
      const items = await timelineOf(t.url, dan, "cnv_9f2a");
      expect(items.at(-1)?.event_id).toBe(eventId);
      expect(t.server.followLagSeconds()).toBeLessThan(5);
    } finally {
      await other.close();
      await pool.end();
      await t.close();
    }
  });
});
