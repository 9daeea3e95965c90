/**
 * Gateway benchmark (loopback only, bounded, ~1–2 min):
 *  1. POST a message → the agent's Formalize card on one SSE client (p50/p99), idle server;
 *  2. the same with 1,000 SSE clients on the tenant: delivery to the last client (p50/p99),
 *     and server RSS per connection;
 *  3. sustained message POSTs/s with auth + idempotency (a human-only chat, 64 in flight).
 * The server runs in its own process (gateway-server.ts) and the SSE clients in another
 * (gateway-clients.ts), so neither the clients' parsing nor this driver is in the server's figures.
 * Runs standalone (`npx tsx test/bench/gateway.ts`) or from test/bench/run.ts via runGatewayBench().
 */
import { fork, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";

interface Started {
  url: string;
  token: string;
  child: ChildProcess;
}

async function startServer(): Promise<Started> {
  const script = fileURLToPath(new URL("./gateway-server.ts", import.meta.url));
  // BENCH_SERVER_CPU_PROF=<dir>: the server writes a CPU profile there when it stops.
  const prof = process.env.BENCH_SERVER_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, "--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      const i = buf.indexOf("\n");
      if (i >= 0) resolve(buf.slice(0, i));
    });
    child.once("exit", (code) => reject(new Error(`bench server exited ${code}`)));
  });
  const { url, demo } = JSON.parse(line) as { url: string; demo: { humans: Array<{ token: string }> } };
  return { url, token: demo.humans[0]!.token, child };
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : NaN;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let keyN = 0;

function post(url: string, token: string, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, {
      method: "POST",
      agent,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(data), "idempotency-key": `bench-${process.pid}-${++keyN}` },
    }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(data);
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (n=${xs.length})`;

/**
 * POSTs `n` messages one after another; for each, waits until every SSE client saw one more
 * Formalize card. The clients live in a child process (gateway-clients.ts) that reports, in wall
 * time, when the last of them got each card; latency = that time − the time the POST was sent.
 */
async function postToCard(s: Started, clients: number, n: number): Promise<{ latencies: number[]; rssPerConnKb?: number }> {
  const script = fileURLToPath(new URL("./gateway-clients.ts", import.meta.url));
  const child = fork(script, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let onMessage: (m: { opened?: number; card?: number; at?: number }) => void = () => {};
  child.on("message", (m) => onMessage(m as { opened?: number; card?: number; at?: number }));
  try {
    const rss0 = rssKb(s.child.pid!);
    await new Promise<void>((resolve) => {
      onMessage = (m) => m.opened !== undefined && resolve();
      child.send({ open: { url: s.url, token: s.token, n: clients } });
    });
    await new Promise((r) => setTimeout(r, 500));
    const rss1 = rssKb(s.child.pid!);
    const latencies: number[] = [];
    let last = 0;
    for (let k = 0; k < n; k++) {
      const ms = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no Formalize card within 10 s")), 10_000);
        const t0 = performance.timeOrigin + performance.now();
        onMessage = (m) => {
          if (m.card === undefined || m.card <= last) return;
          last = m.card;
          clearTimeout(timer);
          resolve(m.at! - t0);
        };
        void post(s.url, s.token, "/v1/conversations/cnv_9f2a/messages", { kind: "text", body_text: `Can you schedule a 30-min call with Maria ${k} next week?` });
      });
      latencies.push(ms);
    }
    return { latencies, ...(clients > 1 ? { rssPerConnKb: (rss1 - rss0) / clients } : {}) };
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    if (child.connected) child.send({ close: true });
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
}

async function sustainedPosts(s: Started, seconds: number, inFlight: number): Promise<{ rps: number; errors: number }> {
  const until = performance.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  const worker = async (w: number) => {
    for (let i = 0; performance.now() < until; i++) {
      const st = await post(s.url, s.token, "/v1/conversations/cnv_dan_ana/messages", { kind: "text", body_text: `bench ${w}-${i} ${"lorem ipsum ".repeat(35)}` });
      if (st === 202) ok++;
      else errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
  return { rps: ok / ((performance.now() - t0) / 1000), errors };
}

export async function runGatewayBench(): Promise<void> {
  console.log("\n== gateway ==");
  const s = await startServer();
  try {
    const only = process.env.BENCH_GATEWAY_ONLY; // "card" | "many" | "posts": one part, for profiling
    if (only === "posts") {
      const sus = await sustainedPosts(s, 8, 64);
      console.log(`sustained message POSTs: ${sus.rps.toFixed(0)} /s, ${sus.errors} errors`);
      return;
    }
    if (only === "card") {
      console.log(`POST message → Formalize card on 1 SSE client: ${fmt((await postToCard(s, 1, 300)).latencies)}`);
      return;
    }
    await postToCard(s, 1, 20); // warm-up
    const idle = await postToCard(s, 1, 200);
    console.log(`POST message → Formalize card on 1 SSE client: ${fmt(idle.latencies)}`);
    const many = await postToCard(s, 1000, 50);
    console.log(`POST message → Formalize card on all of 1,000 SSE clients (last client): ${fmt(many.latencies)}`);
    console.log(`server RSS per SSE connection: ${many.rssPerConnKb!.toFixed(1)} KB`);
    const sus = await sustainedPosts(s, 8, 64);
    console.log(`sustained message POSTs (auth + Idempotency-Key, 500-byte body, 64 in flight): ${sus.rps.toFixed(0)} /s, ${sus.errors} errors`);
  } finally {
    s.child.kill("SIGTERM");
    agent.destroy();
    await new Promise((r) => s.child.once("exit", r));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runGatewayBench();
}
