import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import type { TStoredEvent } from "../../contracts/events.js";
import { messageSent, setupTenant, tempDir } from "./helpers.js";
import { built } from "../support/built.js";

const TENANTS = ["ten_a", "ten_b"];

let child: ChildProcess | undefined;
let dir: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  dir?.cleanup();
});

async function startServer(dataDir: string): Promise<{ proc: ChildProcess; base: string }> {
  const proc = spawn(process.execPath, [built("test/ledger/fixtures/ledger-server.ts")], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  child = proc;
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.once("exit", (code) => reject(new Error(`server exited early (${code})`)));
  });
  return { proc, base: `http://127.0.0.1:${port}` };
}

/** Resolves once the process is gone (a SIGKILLed child has a signalCode and no exitCode). */
const exited = (p: ChildProcess) =>
  new Promise<void>((r) => (p.exitCode !== null || p.signalCode !== null ? r() : p.once("exit", () => r())));

const append = (base: string, tenant: string, events: unknown[]) =>
  fetch(`${base}/v1/ledger/append`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tenant_id: tenant, events }),
  });

async function readAll(base: string, tenant: string): Promise<TStoredEvent[]> {
  const out: TStoredEvent[] = [];
  let cursor: string | null = "seq:0";
  while (cursor) {
    const page = (await (
      await fetch(`${base}/v1/ledger/query?tenant_id=${tenant}&limit=1000&after_cursor=${cursor}`)
    ).json()) as {
      events: TStoredEvent[];
      next_cursor: string | null;
    };
    out.push(...page.events);
    cursor = page.next_cursor;
  }
  return out;
}

describe("crash safety", () => {
  it("after SIGKILL mid-flight, every acknowledged event is present, no batch is partial, seqs are gapless and verify passes", async () => {
    dir = tempDir("ledger-crash-");
    let { proc, base } = await startServer(dir.dir);
    for (const tenant of TENANTS) expect((await append(base, tenant, setupTenant(tenant))).status).toBe(200);

    const sent: Array<{ tenant: string; ids: string[] }> = [];
    const acked: Array<{ tenant: string; ids: string[] }> = [];
    let killed = false;
    let ackedEvents = 0;
    const statuses: string[] = [];
    const client = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const tenant = TENANTS[(n + i) % TENANTS.length]!;
        const events = Array.from({ length: 1 + ((n * 7 + i) % 5) }, () =>
          messageSent(tenant, `c${n} i${i}`, { size: 300 }),
        );
        const batch = { tenant, ids: events.map((e) => e.event_id) };
        sent.push(batch);
        try {
          const res = await append(base, tenant, events);
          if (res.status === 200) acked.push(batch), (ackedEvents += batch.ids.length);
          else statuses.push(`${res.status} ${await res.text()}`);
        } catch {
          return; // connection cut by the kill: not acknowledged
        }
      }
    };
    const clients = Array.from({ length: 16 }, (_, n) => client(n));
    const deadline = Date.now() + 60_000;
    while (ackedEvents < 3000 && Date.now() < deadline && statuses.length === 0)
      await new Promise((r) => setTimeout(r, 5));
    expect(statuses).toEqual([]);
    proc.kill("SIGKILL");
    killed = true;
    await Promise.all(clients);
    await exited(proc);
    expect(acked.length).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThan(acked.length); // some were in flight when the process died

    ({ proc, base } = await startServer(dir.dir));
    for (const tenant of TENANTS) {
      const events = await readAll(base, tenant);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const present = new Set(events.map((e) => e.event_id));
      for (const b of acked.filter((b) => b.tenant === tenant))
        for (const id of b.ids) expect(present.has(id)).toBe(true);
      for (const b of sent.filter((b) => b.tenant === tenant)) {
        const n = b.ids.filter((id) => present.has(id)).length;
        expect([0, b.ids.length]).toContain(n);
      }
      const report = await (await fetch(`${base}/v1/ledger/verify?tenant_id=${tenant}`)).json();
      expect(report).toMatchObject({ ok: true, events_checked: events.length });
    }
    // and it keeps appending after the restart
    expect((await append(base, "ten_a", [messageSent("ten_a", "after restart")])).status).toBe(200);
    proc.kill("SIGTERM");
    await exited(proc);
  }, 120_000);
});
