import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { tempDir } from "../ledger/helpers.js";
import { afterThisTest, freePort, root, startMainProcess } from "../support/process.js";
import { built } from "../support/built.js";

/** A seeded random source, so a failing run can be repeated with the seed it printed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * An OpenAI-compatible endpoint that answers every message with a short chat reply after
 * 20–120 ms, as a (fast) language model would: the window between a message's 202 and its answer is
 * what the kills land in.
 */
async function startSlowModel(rnd: () => number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const reply = JSON.stringify({
    operations: [
      {
        type: "chat_reply",
        text: "Noted, thank you.",
        job_id: null,
        action: null,
        kind: null,
        title: null,
        goal: null,
        slots: null,
        choices: null,
      },
    ],
    surfaces: null,
    render: null,
    citations: null,
  });
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const send = (body: unknown) => {
        const text = JSON.stringify(body);
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
      };
      if (req.method === "GET") return send({ object: "list", data: [{ id: "soak", object: "model" }] });
      setTimeout(
        () =>
          send({
            id: "soak",
            object: "chat.completion",
            created: 0,
            model: "soak",
            choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
          }),
        20 + Math.floor(rnd() * 100),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const ROUNDS: Array<"SIGKILL" | "SIGTERM"> = ["SIGKILL", "SIGTERM", "SIGKILL", "SIGKILL", "SIGTERM", "SIGKILL"];

describe("kill soak: SIGKILL and SIGTERM at random points under concurrent senders", () => {
  it("loses no acknowledged message, leaves none unanswered and answers none twice; verify passes", async () => {
    const seed = Number(process.env.SOAK_SEED ?? Date.now() % 100_000);
    const rnd = random(seed);
    const dir = tempDir("soak-");
    afterThisTest(() => dir.cleanup());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const model = await startSlowModel(rnd);
    afterThisTest(() => model.close());
    const env = {
      DATA_DIR: dir.dir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOGLINE_DEMO: "1",
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_MS: "8000",
      OFFICE_PLANNER: "llm",
      OFFICE_LLM_BASE_URL: model.baseUrl,
      OFFICE_LLM_MODEL: "soak",
      RATE_LIMIT_PER_MINUTE: "100000",
      RATE_LIMIT_BURST: "10000",
    };

    let server = await startMainProcess(env, base);
    const demo = JSON.parse(readFileSync(join(dir.dir, "demo.json"), "utf8")) as {
      tenant_id: string;
      humans: Array<{ token: string }>;
      agents: Array<{ entity_id: string }>;
    };
    const headers = { authorization: `Bearer ${demo.humans[0]!.token}`, "content-type": "application/json" };
    // One conversation with the agent per sender: a person types a message every ~100 ms.
    const conversations: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/v1/conversations`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": `soak-conversation-${i}` },
        body: JSON.stringify({ title: `Soak ${i}`, participants: [{ entity_id: demo.agents[0]!.entity_id }] }),
      });
      expect(res.status).toBe(202);
      conversations.push(((await res.json()) as { conversation_id: string }).conversation_id);
    }

    // n → the message's event id once a 202 was seen; a send that saw no answer is retried
    // with the same Idempotency-Key after the restart, as a client would.
    const acked = new Map<number, string>();
    const unsure = new Set<number>();
    let next = 0;
    const post = async (n: number): Promise<void> => {
      const res = await fetch(`${base}/v1/conversations/${conversations[n % 4]}/messages`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": `soak-${n}` },
        body: JSON.stringify({ kind: "text", body_text: `soak ${n}: thanks, noted` }),
      });
      if (res.status !== 202) throw new Error(`POST ${n}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { created_event_ids: string[] };
      acked.set(n, body.created_event_ids[0]!);
      unsure.delete(n);
    };

    for (const signal of ROUNDS) {
      let stop = false;
      const senders = Array.from({ length: 4 }, async (_, i) => {
        while (!stop) {
          const n = next++ * 4 + i;
          try {
            await post(n);
          } catch {
            unsure.add(n);
          }
          await new Promise((r) => setTimeout(r, 60 + Math.floor(rnd() * 80)));
        }
      });
      await new Promise((r) => setTimeout(r, 200 + Math.floor(rnd() * 800)));
      server.kill(signal);
      const [code] = (await once(server, "exit")) as [number | null];
      if (signal === "SIGTERM") expect(code, `seed ${seed}\n${server.logs()}`).toBe(0);
      stop = true;
      await Promise.all(senders);
      server = await startMainProcess(env, base);
      for (const n of [...unsure]) await post(n).catch(() => undefined);
    }
    expect([...unsure], `seed ${seed}: sends never acknowledged`).toEqual([]);
    expect(acked.size).toBeGreaterThan(40);

    // Every acknowledged message is in the ledger once and gets exactly one answer.
    const db = new Database(join(dir.dir, "logline.sqlite"), { readonly: true });
    afterThisTest(() => void db.close());
    const deadline = Date.now() + 30_000;
    const pending = () => db.prepare("SELECT COUNT(*) FROM office_inbox").pluck().get() as number;
    while (pending() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(pending(), `seed ${seed}`).toBe(0);

    const stored = db
      .prepare(
        "SELECT event_id FROM ledger_events WHERE tenant_id = ? AND event_type = 'message.sent' AND actor_type = 'human'",
      )
      .pluck()
      .all(demo.tenant_id) as string[];
    const answers = db
      .prepare(
        "SELECT json_extract(payload, '$.causation_id') AS cause, COUNT(*) AS n FROM ledger_events WHERE tenant_id = ? AND actor_type = 'agent' GROUP BY cause",
      )
      .all(demo.tenant_id) as Array<{ cause: string | null; n: number }>;
    const answered = new Map(answers.map((a) => [a.cause, a.n]));
    const lost = [...acked.values()].filter((id) => !stored.includes(id));
    const unanswered = [...acked.values()].filter((id) => !answered.has(id));
    const twice = [...acked.values()].filter((id) => (answered.get(id) ?? 0) > 1);
    expect({ lost, unanswered, twice }, `seed ${seed}`).toEqual({ lost: [], unanswered: [], twice: [] });

    server.kill("SIGTERM");
    expect((await once(server, "exit"))[0]).toBe(0);
    const verify = spawnSync(process.execPath, [built("src/cli/logline.ts"), "verify", "--data-dir", dir.dir], {
      cwd: root,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  }, 180_000);
});
