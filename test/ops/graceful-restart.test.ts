import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { EventSource } from "eventsource";
import { tempDir } from "../ledger/helpers.js";
import { afterThisTest, freePort, root, startMainProcess } from "../support/process.js";
import { built } from "../support/built.js";

interface Frame {
  id: string;
  type: string;
  data: string;
}

describe("graceful restart with an SSE client attached", () => {
  it("commits in-flight appends, closes streams with a retry hint, and the client resumes with nothing lost", async () => {
    const dir = tempDir("restart-");
    afterThisTest(() => dir.cleanup());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dir.dir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOGLINE_DEMO: "1",
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: "8000",
    };

    let server = await startMainProcess(env, base);
    const demo = JSON.parse(readFileSync(join(dir.dir, "demo.json"), "utf8")) as {
      tenant_id: string;
      conversation_id: string;
      humans: Array<{ token: string }>;
    };
    const token = demo.humans[0]!.token;
    const auth = { authorization: `Bearer ${token}` };

    // A real EventSource client that sends the bearer token and resumes with Last-Event-ID.
    const frames: Frame[] = [];
    const es = new EventSource(`${base}/v1/stream`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...auth } }),
    });
    afterThisTest(() => es.close());
    for (const type of [
      "hello",
      "timeline.append",
      "conversation.update",
      "job.update",
      "presence.update",
      "artifact.added",
      "error",
    ]) {
      es.addEventListener(type, (e) =>
        frames.push({ id: (e as MessageEvent).lastEventId, type, data: String((e as MessageEvent).data) }),
      );
    }
    await until(() => frames.some((f) => f.type === "hello"), "hello frame");

    // A raw reader on a second stream, to see the bytes the shutdown sends before closing.
    const raw = await fetch(`${base}/v1/stream`, { headers: auth });
    const rawText = (async () => {
      let text = "";
      const reader = raw.body!.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return text;
          text += new TextDecoder().decode(value);
        }
      } catch {
        return text;
      }
    })();

    // Writers keep posting while SIGTERM lands.
    const results = new Map<number, "acked" | "failed">();
    const post = async (n: number) => {
      const res = await fetch(`${base}/v1/conversations/${demo.conversation_id}/messages`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "idempotency-key": `restart-${n}` },
        body: JSON.stringify({ kind: "text", body_text: `restart-msg-${n} done` }),
      });
      if (res.status !== 202) throw new Error(`POST ${n}: ${res.status} ${await res.text()}`);
    };
    let next = 0;
    let stop = false;
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const n = next++;
        try {
          await post(n);
          results.set(n, "acked");
        } catch {
          results.set(n, "failed");
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    });
    await until(() => [...results.values()].filter((r) => r === "acked").length >= 10, "first acks");
    server.kill("SIGTERM");
    const [code] = (await once(server, "exit")) as [number];
    expect(code, server.logs()).toBe(0);
    stop = true;
    await Promise.all(writers);
    expect(await rawText).toMatch(/retry: \d+\n\n$/);
    expect(server.logs()).toMatch(/closed event streams with a retry hint/);

    // Back up, with demo mode still on: a non-empty database is never seeded again.
    const seededBefore = countEvents(dir.dir, "entity.registered");
    server = await startMainProcess(env, base);
    expect(countEvents(dir.dir, "entity.registered")).toBe(seededBefore);
    // A client retries what it never saw acknowledged, with the same Idempotency-Key.
    for (const [n, r] of results) if (r === "failed") await post(n);

    const all = [...results.keys()];
    const bodies = () => frames.filter((f) => f.type === "timeline.append").map((f) => f.data);
    await until(
      () => all.every((n) => bodies().some((d) => d.includes(`restart-msg-${n} done`))),
      "every message on the resumed stream",
    );

    // Nothing lost, nothing repeated: each message exactly once, ids strictly increasing.
    for (const n of all)
      expect(
        bodies().filter((d) => d.includes(`restart-msg-${n} done`)),
        `message ${n}`,
      ).toHaveLength(1);
    const seqs = frames.filter((f) => f.id).map((f) => Number(f.id.replace("seq:", "")));
    const live = seqs.filter((_, i) => frames.filter((f) => f.id)[i]!.type !== "hello");
    for (let i = 1; i < live.length; i++) expect(live[i]).toBeGreaterThan(live[i - 1]!);
    es.close();

    server.kill("SIGTERM");
    expect((await once(server, "exit"))[0]).toBe(0);
    const verify = spawnSync(process.execPath, [built("src/cli/logline.ts"), "verify", "--data-dir", dir.dir], {
      cwd: root,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(new RegExp(`^ok +${demo.tenant_id}`, "m"));
  }, 90_000);
});

function countEvents(dataDir: string, type: string): number {
  const db = new Database(join(dataDir, "logline.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT COUNT(*) FROM ledger_events WHERE event_type = ?").pluck().get(type) as number;
  } finally {
    db.close();
  }
}

async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
