/**
 * The gateway benchmark's SSE clients, in their own process so the figures are the server's
 * cost, not the cost of 1,000 clients parsing frames in the process that measures (still
 * loopback, still the same 2 cores). Driven over IPC by test/bench/gateway.ts:
 *   → {open: {url, token, n}}   ← {opened: n}
 *   ← {card: k, at}             when the last of the n clients has seen its k-th Formalize card;
 *                               `at` is wall time (performance.timeOrigin + now, comparable
 *                               across processes), so IPC latency is not in the figure
 *   → {close: true}             the clients disconnect and the process exits
 */
import net from "node:net";

const wallNow = () => performance.timeOrigin + performance.now();
let reqs: net.Socket[] = [];
let counts: number[] = [];
/** seen[k]: how many clients have seen at least k cards (O(1) per card, where a scan is O(clients)). */
let seen: number[] = [];
let reported = 0;

function onCard(i: number): void {
  const k = ++counts[i]!;
  seen[k] = (seen[k] ?? 0) + 1;
  // every client has seen the next card(s)?
  while (seen[reported + 1] === counts.length) {
    reported++;
    process.send!({ card: reported, at: wallNow() });
  }
}

const MARKER = Buffer.from('"card_type":"job.formalize"');
const APPEND = Buffer.from("event: timeline.append");
const FRAME_END = Buffer.from("\n\n");

/**
 * One stream on a bare socket: the request written by hand and the response's bytes searched as
 * they come (no HTTP parser, stream objects or text decoding per chunk), so that the clients'
 * own work, on the same cores as the server, weighs as little as a client's can.
 */
function open(url: string, token: string, i: number): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.setNoDelay(true);
    let headerSeen = false;
    let tail = Buffer.alloc(0);
    socket.once("connect", () =>
      socket.write(`GET /v1/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ll_session=${token}\r\n\r\n`),
    );
    socket.on("data", (chunk: Buffer) => {
      if (!headerSeen) {
        headerSeen = true;
        if (!chunk.subarray(0, 13).toString("latin1").startsWith("HTTP/1.1 200")) {
          socket.destroy();
          return reject(new Error(`stream ${chunk.subarray(0, 12).toString("latin1")}`));
        }
        resolve(socket);
      }
      const s = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      // only markers that end in this chunk (one wholly in the tail was counted already)
      let at = Math.max(0, tail.length - MARKER.length + 1);
      for (;;) {
        const j = s.indexOf(MARKER, at);
        if (j < 0) break;
        // one Formalize card = one timeline.append; the job.update that follows carries no card_type
        if (s.lastIndexOf(APPEND, j) > s.lastIndexOf(FRAME_END, j) - 400) onCard(i);
        at = j + 1;
      }
      tail = Buffer.from(s.subarray(Math.max(0, s.length - 1024)));
    });
    socket.on("error", reject);
  });
}

process.on("message", async (m: { open?: { url: string; token: string; n: number }; close?: true }) => {
  if (m.open) {
    counts = new Array<number>(m.open.n).fill(0);
    seen = [];
    reported = 0;
    // 100 at a time: 10,000 one after another would take longer than the figure itself
    for (let i = 0; i < m.open.n; i += 100) {
      // A connection the busy server drops before answering is opened again (three tries).
      const tryOpen = async (j: number, tries = 3): Promise<net.Socket> => {
        try {
          return await open(m.open!.url, m.open!.token, j);
        } catch (err) {
          if (tries <= 1) throw err;
          await new Promise((r) => setTimeout(r, 200));
          return tryOpen(j, tries - 1);
        }
      };
      const batch = Array.from({ length: Math.min(100, m.open.n - i) }, (_, k) => tryOpen(i + k));
      reqs.push(...(await Promise.all(batch)));
    }
    process.send!({ opened: m.open.n });
  } else if (m.close) {
    for (const r of reqs) r.destroy();
    reqs = [];
    process.disconnect();
  }
});
