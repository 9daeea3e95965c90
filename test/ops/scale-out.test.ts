import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { loadVapidKeys } from "../../src/gateway/notify/vapid-keys.js";
import { createPgLedger } from "../../src/ledger/pg/pg-ledger.js";
import { loadOrCreateSigner } from "../../src/ledger/signing.js";
import { loadVaultKeys } from "../../src/office/vault/vault-key.js";
import { tempDir } from "../ledger/helpers.js";
import { newPgDatabase, stopSharedPostgres } from "../ledger/pg/pg-helpers.js";
import { statedClock } from "../support/clock.js";
import { timelineOf } from "../support/golden.js";
import { afterThisTest, type MainProcess, startPgProcess } from "../support/process.js";
import { getJson, waitFor } from "../support/server.js";

/**
 * The kill test: three real LogLine processes on one PostgreSQL, nine event-stream clients
 * (three per process) and four senders posting round-robin with Idempotency-Keys, some of the
 * posts asking the agent. Mid-load the holder of Office's lease is SIGKILLed, then restarted.
 * Senders retry a failed post with the same key on the next process; stream clients resume on
 * the next process with their Last-Event-ID. Afterwards: every acknowledged post is in the ledger
 * once, each tenant's seq is contiguous and `verify` passes, the inbox is empty and every ask was
 * answered once, every client saw every frame group once and in order, and the three processes'
 * projections agree (the restarted one rebuilt its own by replay). Fewer clients and senders than
 * the design note's 30 and 8, and paced senders (about 40 posts a second in all), to fit a 2-core
 * machine; the three processes boot at once, on keys made before any starts.
 */

afterAll(() => stopSharedPostgres());

const TENANT = "tnt_acme_001";
const ASK = "cnv_9f2a";
const CHAT = "cnv_dan_ana";
const SHARED_KEYS = ["ledger-signing-key.pem", "office-vault.key", "push-vapid-keys.json"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SEND_EVERY_MS = 100;

interface Proc {
  base: string;
  dir: string;
  child: MainProcess;
}

function boot(url: string, dir: string, demo: boolean): Promise<Proc> {
  return startPgProcess(url, dir, {
    demo,
    // The senders are one person writing fast: the limit is not what this test is about.
    env: { RATE_LIMIT_PER_MINUTE: "1000000", RATE_LIMIT_BURST: "100000" },
    // Three processes starting at once under load on two cores: generous.
    bootMs: 120_000,
  });
}

/**
 * An event-stream client that moves to the next live process whenever its stream ends or fails,
 * resuming with the last `id:` it saw. Records the seq of every frame group (the `id:` on its last
 * frame) and the event id of every timeline item.
 */
function streamClient(live: () => string[], start: number, token: string) {
  const seqs: number[] = [];
  const items: string[] = [];
  let firstHello: number | undefined;
  let last: string | undefined;
  let turn = start;
  let stopped = false;
  let controller: AbortController | undefined;
  const run = async () => {
    while (!stopped) {
      const bases = live();
      const base = bases[turn++ % bases.length]!;
      controller = new AbortController();
      try {
        const res = await fetch(`${base}/v1/stream`, {
          headers: { authorization: `Bearer ${token}`, ...(last ? { "last-event-id": last } : {}) },
          signal: controller.signal,
        });
        if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of res.body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf("\n\n");
            let id: string | undefined;
            let event = "";
            let data = "";
            for (const line of block.split("\n")) {
              if (line.startsWith("id: ")) id = line.slice(4);
              else if (line.startsWith("event: ")) event = line.slice(7);
              else if (line.startsWith("data: ")) data += line.slice(6);
            }
            if (event === "hello") {
              firstHello ??= Number(id!.slice(4));
              last = id;
              continue;
            }
            if (event === "error") throw new Error(`stream error: ${data}`);
            if (event === "timeline.append")
              items.push((JSON.parse(data) as { item: { event_id: string } }).item.event_id);
            if (id) {
              seqs.push(Number(id.slice(4)));
              last = id;
            }
          }
        }
      } catch {
        // The process died or the stream was cut: resume on the next one.
      }
      if (!stopped) await sleep(50);
    }
  };
  const done = run();
  return {
    seqs,
    items,
    firstHello: () => firstHello,
    async stop() {
      stopped = true;
      controller?.abort();
      await done;
    },
  };
}

/** A sender: posts in turn to the live processes, retrying a post that failed with its key on the next. */
function sender(live: () => string[], k: number, token: string) {
  const acked: Array<{ text: string; eventId: string; conv: string }> = [];
  let retried = 0;
  let stopped = false;
  let turn = k;
  const run = async () => {
    for (let n = 0; !stopped; n++) {
      const conv = n % 5 === 4 ? ASK : CHAT;
      const text =
        conv === ASK ? `Can you schedule a 30-min call with Maria next week? (s${k}-${n})` : `chat s${k}-${n}`;
      const key = `scale-out-s${k}-${n}`;
      for (let attempt = 0; ; attempt++) {
        const bases = live();
        const base = bases[turn++ % bases.length]!;
        try {
          const res = await fetch(`${base}/v1/conversations/${conv}/messages`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
            body: JSON.stringify({ kind: "text", body_text: text }),
          });
          const body = (await res.json()) as { created_event_ids?: string[]; event_id?: string };
          if (res.status === 202) {
            acked.push({ text, eventId: body.created_event_ids?.[0] ?? body.event_id!, conv });
            if (attempt > 0) retried++;
            break;
          }
          if (res.status < 500 && res.status !== 409)
            throw new Error(`post refused: ${res.status} ${JSON.stringify(body)}`);
        } catch (err) {
          if ((err as Error).message.startsWith("post refused")) throw err;
          // Connection refused or cut: the same key on the next process.
        }
        await sleep(100);
      }
      // Paced (about 40 posts a second from four senders), so a process booting on this machine gets CPU too.
      await sleep(SEND_EVERY_MS);
    }
  };
  const done = run();
  return {
    acked,
    retried: () => retried,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

describe("scale-out: three processes, the lease holder killed mid-load", () => {
  it("loses nothing, duplicates nothing, and every stream sees every frame group once", async () => {
    const url = await newPgDatabase("scale_out");
    const db = new pg.Pool({ connectionString: url, max: 2 });
    afterThisTest(() => db.end());
    const dirs = [tempDir("so-a-"), tempDir("so-b-"), tempDir("so-c-")];
    afterThisTest(() => {
      for (const d of dirs) d.cleanup();
    });
    // The keys every process must share, made before any starts, so the three boot at once.
    const [dirA, ...others] = dirs.map((d) => d.dir) as [string, ...string[]];
    loadOrCreateSigner(dirA);
    loadVaultKeys(dirA, undefined);
    loadVapidKeys(dirA);
    for (const d of others) for (const f of SHARED_KEYS) copyFileSync(join(dirA, f), join(d, f));
    const procs: Proc[] = await Promise.all([boot(url, dirA, true), ...others.map((d) => boot(url, d, false))]);
    const first = procs[0]!;
    const live = () => procs.filter((p) => p.child.exitCode === null && p.child.signalCode === null).map((p) => p.base);
    const dan = (JSON.parse(readFileSync(join(dirA, "demo.json"), "utf8")) as { humans: Array<{ token: string }> })
      .humans[0]!.token;

    const clients = Array.from({ length: 9 }, (_, i) => streamClient(live, i, dan));
    await waitFor(() => clients.every((c) => c.firstHello() !== undefined), 15_000, "every stream's hello");
    const senders = Array.from({ length: 4 }, (_, k) => sender(live, k, dan));
    await sleep(3_000);

    // Kill the lease holder while it answers, found through its lock and its connection's name.
    const { rows } = await db.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'logline-office-lease-%'`,
    );
    expect(rows).toHaveLength(1);
    const holderPid = Number(rows[0]!.name.slice("logline-office-lease-".length));
    const victim = procs.findIndex((p) => p.child.pid === holderPid);
    expect(victim).toBeGreaterThanOrEqual(0);
    procs[victim]!.child.kill("SIGKILL");
    // Started again at once: it is away while it boots (seconds, on this machine), then takes load.
    procs[victim] = await boot(url, procs[victim]!.dir, false);
    await sleep(2_000);
    await Promise.all(senders.map((s) => s.stop()));

    // Idle: every ask answered and the inbox empty, every process caught up with the heads.
    const asks = senders.flatMap((s) => s.acked).filter((a) => a.conv === ASK);
    const answers = async () => {
      const r = await db.query<{ cause: string; n: number }>(
        `SELECT payload::jsonb->>'causation_id' AS cause, count(*)::int AS n FROM ledger.events
         WHERE tenant_id = $1 AND actor_type = 'agent' AND payload::jsonb->>'causation_id' = ANY($2) GROUP BY 1`,
        [TENANT, asks.map((a) => a.eventId)],
      );
      return new Map(r.rows.map((x) => [x.cause, x.n]));
    };
    await waitFor(async () => ((await answers()).size === asks.length ? true : undefined), 30_000, "every answer");
    const inbox = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM office.inbox");
    expect(inbox.rows[0]!.n).toBe(0);
    const head = Number(
      (await db.query<{ s: string }>("SELECT tenant_seq AS s FROM ledger.heads WHERE tenant_id = $1", [TENANT]))
        .rows[0]!.s,
    );
    await waitFor(() => clients.every((c) => c.seqs.at(-1) === head || c.items.length === 0) || undefined, 15_000);
    await sleep(300);
    await Promise.all(clients.map((c) => c.stop()));

    // Every acknowledged post once, a retried one too; nothing posted twice.
    const acked = senders.flatMap((s) => s.acked);
    expect(acked.length).toBeGreaterThan(20);
    const counts = await db.query<{ text: string; n: number }>(
      `SELECT payload::jsonb->'payload'->>'body_text' AS text, count(*)::int AS n FROM ledger.events
       WHERE tenant_id = $1 AND event_type = 'message.sent' AND actor_type = 'human' GROUP BY 1`,
      [TENANT],
    );
    const byText = new Map(counts.rows.map((r) => [r.text, r.n]));
    for (const a of acked) expect(byText.get(a.text), a.text).toBe(1);
    expect([...byText.values()].filter((n) => n > 1)).toEqual([]);
    // Each ask answered once, by one process or the other.
    expect([...(await answers()).values()]).toEqual(asks.map(() => 1));

    // Contiguous seqs, the head at the last one, and the chain, checkpoints and tree verify.
    const seqs = await db.query<{ n: number; lo: string; hi: string }>(
      "SELECT count(*)::int AS n, min(tenant_seq) AS lo, max(tenant_seq) AS hi FROM ledger.events WHERE tenant_id = $1",
      [TENANT],
    );
    expect(Number(seqs.rows[0]!.lo)).toBe(1);
    expect(Number(seqs.rows[0]!.hi)).toBe(seqs.rows[0]!.n);
    expect(Number(seqs.rows[0]!.hi)).toBe(head);
    const reader = await createPgLedger({ pool: db, dataDir: first.dir, clock: statedClock() });
    try {
      expect((await reader.verify(TENANT)).ok).toBe(true);
    } finally {
      await reader.close();
    }

    // Every client saw each frame group once, in order, from its first hello to the head, across
    // its reconnects: the same groups as any other client over the same span.
    const reference = clients[0]!;
    for (const c of clients) {
      expect(new Set(c.seqs).size).toBe(c.seqs.length);
      expect(c.seqs).toEqual([...c.seqs].sort((x, y) => x - y));
      expect(new Set(c.items).size).toBe(c.items.length);
      const from = Math.max(c.firstHello()!, reference.firstHello()!);
      expect(c.seqs.filter((s) => s > from)).toEqual(reference.seqs.filter((s) => s > from));
      expect(c.seqs.at(-1)).toBe(head);
    }
    const everyAck = new Set(reference.items);
    for (const a of acked) expect(everyAck.has(a.eventId), a.text).toBe(true);

    // The processes agree: the restarted one rebuilt its projections by replay, the others folded live.
    const view = async (base: string) => ({
      ask: await timelineOf(base, dan, ASK),
      chat: await timelineOf(base, dan, CHAT),
      conversations: (await getJson(`${base}/v1/conversations`, dan)).body,
    });
    const views = await Promise.all(procs.map((p) => view(p.base)));
    expect(views[1]).toEqual(views[0]);
    expect(views[2]).toEqual(views[0]);
  }, 300_000);
});
