/**
 * Gateway benchmark (loopback only, bounded, ~1–2 min):
 *  1. POST a message → the agent's Formalize card on one SSE client (p50/p99), idle server;
 *  2. the same with 1,000 SSE clients on the tenant: delivery to the last client (p50/p99),
 *     and server RSS per connection;
 *  3. sustained message POSTs/s with auth + idempotency (a human-only chat, 64 in flight);
 *  4. noisy neighbour, on a server with the production rate limits: one token hammers every
 *     write route (Messenger posts, ledger append, Office ingest) while another workspace posts
 *     at a person's pace; its latency is measured idle and during, side by side.
 * The server runs in its own process (gateway-server.ts) and the SSE clients in another
 * (gateway-clients.ts), so neither the clients' parsing nor this driver is in the server's figures.
 * Runs standalone (`npx tsx test/bench/gateway.ts`) or from test/bench/run.ts via runGatewayBench().
 */
import { fork, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { rawBatchedRate } from "./ledger.js";
import { figure, loadavg, pct, RUNS } from "./report.js";

interface Started {
  url: string;
  token: string;
  other?: { token: string; entity: string };
  child: ChildProcess;
}

async function startServer(env: Record<string, string> = {}): Promise<Started> {
  const script = fileURLToPath(new URL("./gateway-server.ts", import.meta.url));
  // BENCH_SERVER_CPU_PROF=<dir>: the server writes a CPU profile there when it stops.
  const prof = process.env.BENCH_SERVER_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...prof, "--import", "tsx", script], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      const i = buf.indexOf("\n");
      if (i >= 0) resolve(buf.slice(0, i));
    });
    child.once("exit", (code) => reject(new Error(`bench server exited ${code}`)));
  });
  const { url, demo, other } = JSON.parse(line) as {
    url: string;
    demo: { humans: Array<{ token: string }> };
    other?: { token: string; owner_entity_id: string };
  };
  return {
    url,
    token: demo.humans[0]!.token,
    ...(other ? { other: { token: other.token, entity: other.owner_entity_id } } : {}),
    child,
  };
}

/**
 * CPU seconds a process has used (user + system, from /proc): the whole process, and its main
 * thread alone (the thread whose id is the pid; worker threads, such as the search index's,
 * are the others).
 */
function cpuSeconds(pid: number): { process: number; main: number } {
  const ticks = (stat: string) => {
    // Fields after the command name (which sits in parentheses and may hold spaces).
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  return {
    process: ticks(readFileSync(`/proc/${pid}/stat`, "utf8")),
    main: ticks(readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8")),
  };
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : NaN;
}

/** A process's CPU time so far (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let keyN = 0;

/**
 * One POST on the keep-alive agent. A kept-alive socket the server closed just as it was reused
 * answers ECONNRESET: that request is sent once more with the same Idempotency-Key (which is
 * what the key is for).
 */
function post(
  url: string,
  token: string,
  path: string,
  body: unknown,
  key = `bench-${process.pid}-${++keyN}`,
  retried = false,
): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(data),
          "idempotency-key": key,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (!retried && err.code === "ECONNRESET") resolve(post(url, token, path, body, key, true));
      else reject(err);
    });
    req.end(data);
  });
}

const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (n=${xs.length})`;

/**
 * Opens `clients` SSE streams in a child process (gateway-clients.ts), which reports, in wall
 * time, when the last of them got each Formalize card. `measure(n)` POSTs `n` messages one after
 * another and, for each, waits until every client saw one more card: latency = that time − the
 * time the POST was sent.
 */
async function openClients(s: Started, clients: number) {
  const script = fileURLToPath(new URL("./gateway-clients.ts", import.meta.url));
  const child = fork(script, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let onMessage: (m: { opened?: number; card?: number; at?: number }) => void = () => {};
  child.on("message", (m) => onMessage(m as { opened?: number; card?: number; at?: number }));
  const rss0 = rssKb(s.child.pid!);
  await new Promise<void>((resolve) => {
    onMessage = (m) => m.opened !== undefined && resolve();
    child.send({ open: { url: s.url, token: s.token, n: clients } });
  });
  await new Promise((r) => setTimeout(r, 500));
  const rssPerConnKb = (rssKb(s.child.pid!) - rss0) / clients;
  let last = 0;
  let k = 0;
  return {
    rssPerConnKb,
    async measure(n: number): Promise<number[]> {
      const latencies: number[] = [];
      for (let i = 0; i < n; i++, k++) {
        const ms = await new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no Formalize card within 30 s")), 30_000);
          const t0 = performance.timeOrigin + performance.now();
          onMessage = (m) => {
            if (m.card === undefined || m.card <= last) return;
            last = m.card;
            clearTimeout(timer);
            resolve(m.at! - t0);
          };
          void post(s.url, s.token, "/v1/conversations/cnv_9f2a/messages", {
            kind: "text",
            body_text: `Can you schedule a 30-min call with Maria ${k} next week?`,
          });
        });
        latencies.push(ms);
      }
      return latencies;
    },
    async close(): Promise<void> {
      const exited = new Promise((r) => child.once("exit", r));
      if (child.connected) child.send({ close: true });
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** p99 of POST → card on `clients` streams, RUNS times over `perRun` posts each (one set of connections). */
async function cardFigure(s: Started, clients: number, perRun: number, name: string, goalMs: number): Promise<void> {
  const c = await openClients(s, clients);
  try {
    await c.measure(Math.min(10, perRun)); // warm-up
    const runs: number[][] = [];
    const cpu0 = cpuMs(s.child.pid!);
    for (let r = 0; r < RUNS; r++) runs.push(await c.measure(perRun));
    const cpuPerPost = (cpuMs(s.child.pid!) - cpu0) / (RUNS * perRun);
    figure(
      `${name}, p50`,
      runs.map((xs) => pct(xs, 50)),
      " ms",
      undefined,
      1,
    );
    figure(
      `${name}, p99`,
      runs.map((xs) => pct(xs, 99)),
      " ms",
      { op: "≤", value: goalMs },
      1,
    );
    // What the load moves least: the server's own CPU time (user + system) per post and its fan-out.
    console.log(`  server CPU per post: ${cpuPerPost.toFixed(1)} ms`);
    if (clients > 1) console.log(`  server RSS per SSE connection: ${c.rssPerConnKb.toFixed(1)} KB`);
  } finally {
    await c.close();
  }
}

async function sustainedPosts(
  s: Started,
  seconds: number,
  inFlight: number,
): Promise<{ rps: number; posts: number; errors: number }> {
  const until = performance.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  const worker = async (w: number) => {
    for (let i = 0; performance.now() < until; i++) {
      const st = await post(s.url, s.token, "/v1/conversations/cnv_dan_ana/messages", {
        kind: "text",
        body_text: `bench ${w}-${i} ${"lorem ipsum ".repeat(35)}`,
      });
      if (st === 202) ok++;
      else errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
  return { rps: ok / ((performance.now() - t0) / 1000), posts: ok + errors, errors };
}

const APPEND_BODY =
  "Quarterly planning notes: please review the agenda before the meeting and add your topics below. ".repeat(7);
let appendN = 0;
/** Events the server accepted over `POST /v1/ledger/append`, warm-up included. */
let appendedEvents = 0;

/** `perRequest` ≈ 1 KB message.sent events by the demo's first person, as `POST /v1/ledger/append` takes them. */
function appendBody(perRequest: number) {
  const run = `${process.pid.toString(16)}${Date.now().toString(16)}`;
  return {
    tenant_id: "tnt_acme_001",
    events: Array.from({ length: perRequest }, () => {
      const n = ++appendN;
      return {
        event_id: `evt_bench_${run}_${n}`,
        ts: new Date(Date.parse("2026-01-05T09:00:00.000Z") + n).toISOString(),
        tenant_id: "tnt_acme_001",
        trace_id: `trc_bench_${run}_${n}`,
        conversation_id: "cnv_dan_ana",
        actor: { entity_id: "ent_human_dan", actor_type: "human" },
        event_type: "message.sent",
        payload: { message_id: `msg_bench_${run}_${n}`, kind: "text", body_text: APPEND_BODY.slice(0, 600) },
      };
    }),
  };
}

/** `POST /v1/ledger/append` with `perRequest` events per request, `inFlight` at a time, for `seconds`: events/s. */
async function httpAppend(
  s: Started,
  seconds: number,
  inFlight: number,
  perRequest: number,
  warmMs = 1000,
): Promise<{ eventsPerSec: number; errors: number }> {
  const warm = Date.now() + warmMs;
  while (Date.now() < warm)
    if ((await post(s.url, s.token, "/v1/ledger/append", appendBody(perRequest))) === 200) appendedEvents += perRequest;
  const until = performance.now() + seconds * 1000;
  let events = 0;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const st = await post(s.url, s.token, "/v1/ledger/append", appendBody(perRequest));
      if (st === 200) events += perRequest;
      else errors++;
      if (st === 200) appendedEvents += perRequest;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { eventsPerSec: events / ((performance.now() - t0) / 1000), errors };
}

/**
 * Tenant A's one token floods every write route (64 in flight) for as long as tenant B posts
 * `n` messages one after another; B's latencies are taken the same way with A quiet first.
 */
async function noisyNeighbour(n: number): Promise<number> {
  const s = await startServer({ BENCH_LIMITS: "default" });
  try {
    const other = s.other!;
    const conv = await new Promise<string>((resolve, reject) => {
      const data = JSON.stringify({ title: "Notes", participants: [{ entity_id: other.entity }] });
      const req = http.request(
        `${s.url}/v1/conversations`,
        {
          method: "POST",
          agent,
          headers: {
            authorization: `Bearer ${other.token}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(data),
            "idempotency-key": `bench-conv-${process.pid}`,
          },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () =>
            res.statusCode === 202
              ? resolve((JSON.parse(body) as { conversation_id: string }).conversation_id)
              : reject(new Error(`creating the neighbour's conversation answered ${res.statusCode}: ${body}`)),
          );
        },
      );
      req.on("error", reject);
      req.end(data);
    });
    const timed = async () => {
      const xs: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const st = await post(s.url, other.token, `/v1/conversations/${conv}/messages`, {
          kind: "text",
          body_text: `neighbour ${i}`,
        });
        if (st !== 202) throw new Error(`the neighbour's post answered ${st}`);
        xs.push(performance.now() - t0);
        // A busy person's pace (10 posts/s), well inside the per-person limit.
        await new Promise((r) => setTimeout(r, 100));
      }
      return xs;
    };
    const idle = await timed();
    let stop = false;
    const codes = new Map<number, number>();
    const flood = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const k = i % 3;
        const st =
          k === 0
            ? await post(s.url, s.token, "/v1/conversations/cnv_dan_ana/messages", {
                kind: "text",
                body_text: `flood ${w}-${i}`,
              })
            : k === 1
              ? await post(s.url, s.token, "/v1/ledger/append", {
                  tenant_id: "tnt_acme_001",
                  events: [
                    {
                      event_id: `evt_flood_${w}_${i}`,
                      event_type: "message.sent",
                      ts: new Date().toISOString(),
                      tenant_id: "tnt_acme_001",
                      trace_id: "trc_flood",
                      conversation_id: "cnv_dan_ana",
                      actor: { entity_id: "ent_human_dan", actor_type: "human" },
                      payload: { message_id: `msg_flood_${w}_${i}`, kind: "text", body_text: "flood" },
                    },
                  ],
                })
              : await post(s.url, s.token, "/v1/office/ingest_message", {
                  tenant_id: "tnt_acme_001",
                  trace_id: "trc_flood",
                  conversation_id: "cnv_dan_ana",
                  actor_entity_id: "ent_human_dan",
                  body_text: "flood",
                });
        codes.set(st, (codes.get(st) ?? 0) + 1);
      }
    };
    const t0 = performance.now();
    const flooders = Array.from({ length: 64 }, (_, w) => flood(w));
    await new Promise((r) => setTimeout(r, 300));
    const during = await timed();
    stop = true;
    await Promise.all(flooders);
    const secs = (performance.now() - t0) / 1000;
    const accepted = [...codes].filter(([c]) => c < 300).reduce((a, [, v]) => a + v, 0);
    console.log(
      `  noisy neighbour run: the flooding token got ${accepted} writes accepted (${(accepted / secs).toFixed(0)}/s) and ${codes.get(429) ?? 0} × 429 in ${secs.toFixed(1)} s; the other workspace's posts idle ${fmt(idle)}, during ${fmt(during)}`,
    );
    return pct(during, 99) / pct(idle, 99);
  } finally {
    s.child.kill("SIGTERM");
    await new Promise((r) => s.child.once("exit", r));
  }
}

export async function runGatewayBench(): Promise<void> {
  console.log("\n== gateway ==");
  const only = process.env.BENCH_GATEWAY_ONLY; // "append" | "card" | "many" | "posts" | "neighbour": one part, for profiling
  const part = (name: string) => !only || only === name;
  const s = await startServer();
  try {
    if (part("append")) {
      // Each run alternates 1-second HTTP slices with raw 100-row transactions, five of each,
      // so a change in the machine's load weighs on both sides of the ratio alike.
      const runs: Array<{ http: number; raw: number; mainUs: number; processUs: number }> = [];
      for (let r = 0; r < RUNS; r++) {
        const http: number[] = [];
        const raw: number[] = [];
        const cpu0 = cpuSeconds(s.child.pid!);
        const events0 = appendedEvents;
        for (let slice = 0; slice < 5; slice++) {
          raw.push(rawBatchedRate(30));
          http.push((await httpAppend(s, 1, 4, 100, slice === 0 ? 1000 : 0)).eventsPerSec);
        }
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        const cpu1 = cpuSeconds(s.child.pid!);
        const n = appendedEvents - events0;
        runs.push({
          http: mean(http),
          raw: mean(raw),
          mainUs: ((cpu1.main - cpu0.main) / n) * 1e6,
          processUs: ((cpu1.process - cpu0.process) / n) * 1e6,
        });
      }
      console.log(
        `  (raw 100-row transactions in these runs: ${runs.map((x) => x.raw.toFixed(0)).join(", ")} rows/s; HTTP ${runs.map((x) => x.http.toFixed(0)).join(", ")} events/s)`,
      );
      figure(
        "ledger append over HTTP, 100 events/request, 4 in flight, vs raw 100-row tx",
        runs.map((x) => (x.http / x.raw) * 100),
        " %",
        { op: "≥", value: 40 },
      );
      cpuFigures(
        "appended event",
        " (commits and answers requests)",
        runs.map((x) => ({ main: x.mainUs, process: x.processUs })),
      );
      console.log(`  ${loadavg()}`);
    }
    if (part("card")) {
      await cardFigure(s, 1, 100, "POST message → Formalize card on 1 SSE client", 15);
      console.log(`  ${loadavg()}`);
    }
    if (part("many")) {
      await cardFigure(s, 1000, 30, "… on all of 1,000 SSE clients (last client)", 80);
      console.log(`  ${loadavg()}`);
      await cardFigure(s, 10_000, 10, "… on all of 10,000 SSE clients (last client)", 300);
      console.log(`  ${loadavg()}`);
    }
    if (part("posts")) {
      const runs: number[] = [];
      const cpuUs: Array<{ main: number; process: number }> = [];
      let errors = 0;
      for (let r = 0; r < RUNS; r++) {
        const cpu0 = cpuSeconds(s.child.pid!);
        const sus = await sustainedPosts(s, 5, 64);
        const cpu1 = cpuSeconds(s.child.pid!);
        runs.push(sus.rps);
        errors += sus.errors;
        cpuUs.push({
          main: ((cpu1.main - cpu0.main) / sus.posts) * 1e6,
          process: ((cpu1.process - cpu0.process) / sus.posts) * 1e6,
        });
      }
      figure(
        `sustained message POSTs (auth + Idempotency-Key, 500-byte body, 64 in flight; ${errors} errors), /s`,
        runs,
        "",
        { op: "≥", value: 3000 },
      );
      // What the load moves least: the server's CPU time per post, its main thread and the whole process.
      cpuFigures("post", "", cpuUs);
      console.log(`  ${loadavg()}`);
    }
  } finally {
    s.child.kill("SIGTERM");
    await new Promise((r) => s.child.once("exit", r));
  }
  if (part("neighbour")) {
    const runs: number[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(await noisyNeighbour(50));
    figure("noisy neighbour: p99 during the flood vs idle", runs, "×", { op: "≤", value: 1.5 }, 2);
    console.log(`  ${loadavg()}`);
  }
  agent.destroy();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runGatewayBench();
}

/** The server's CPU time per unit of work in each run: its main thread, then the whole process. */
function cpuFigures(unit: string, mainNote: string, runs: Array<{ main: number; process: number }>): void {
  figure(
    `server CPU per ${unit}, main thread${mainNote}`,
    runs.map((x) => x.main),
    " µs",
  );
  figure(
    `server CPU per ${unit}, whole process (the search index's thread included)`,
    runs.map((x) => x.process),
    " µs",
  );
}
