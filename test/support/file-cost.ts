import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";

/**
 * With LOGLINE_TEST_COST=<file>, each test file appends one JSON line there: its wall time and
 * the CPU it used — this lane's process, the processes it started (Chromium, PostgreSQL,
 * Radicale…, live or ended) — so a run on a busy machine still says what each file costs.
 */
const out = process.env.LOGLINE_TEST_COST;
const TICK_MS = 10;

/** utime+stime(+children's, once reaped) of one process, in ms. */
function cpuOf(pid: number | "self"): { own: number; reaped: number; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields after the name start at state (3): ppid 4, utime 14, stime 15, cutime 16, cstime 17.
    const n = (i: number) => Number(f[i - 3]);
    return { own: (n(14) + n(15)) * TICK_MS, reaped: (n(16) + n(17)) * TICK_MS, ppid: n(4) };
  } catch {
    return null;
  }
}

/** CPU of this process and of every process below it, live or reaped, in ms. */
function treeCpu(): { self: number; others: number } {
  const parent = new Map<number, number>();
  const cpu = new Map<number, { own: number; reaped: number }>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const c = cpuOf(pid);
    if (!c) continue;
    parent.set(pid, c.ppid);
    cpu.set(pid, c);
  }
  const me = process.pid;
  const below = (pid: number) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === me) return true;
    return false;
  };
  let others = 0;
  for (const [pid, c] of cpu) if (below(pid)) others += c.own + c.reaped;
  const mine = cpu.get(me) ?? { own: 0, reaped: 0 };
  return { self: mine.own, others: others + mine.reaped };
}

if (out) {
  let start = { self: 0, others: 0 };
  let at = 0;
  beforeAll(() => {
    start = treeCpu();
    at = performance.now();
  });
  afterAll(() => {
    const end = treeCpu();
    const file = expect.getState().testPath ?? "?";
    appendFileSync(
      out,
      `${JSON.stringify({
        file: file.slice(file.indexOf("/test/") + 1),
        kind: process.env.LOGLINE_TEST_KIND,
        wallMs: Math.round(performance.now() - at),
        selfCpuMs: end.self - start.self,
        childCpuMs: end.others - start.others,
      })}\n`,
    );
  });
}
