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
import http from "node:http";

const wallNow = () => performance.timeOrigin + performance.now();
let reqs: http.ClientRequest[] = [];
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

function open(url: string, token: string, i: number): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/v1/stream`, { headers: { cookie: `ll_session=${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      let tail = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const s = tail + chunk;
        let at = 0;
        for (;;) {
          const j = s.indexOf('"card_type":"job.formalize"', at);
          if (j < 0) break;
          // one Formalize card = one timeline.append; the job.update that follows carries no card_type
          if (s.lastIndexOf("event: timeline.append", j) > s.lastIndexOf("\n\n", j) - 400) onCard(i);
          at = j + 1;
        }
        tail = s.slice(-40);
      });
      resolve(req);
    });
    req.on("error", reject);
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
      const tryOpen = async (j: number, tries = 3): Promise<http.ClientRequest> => {
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
