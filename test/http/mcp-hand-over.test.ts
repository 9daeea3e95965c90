import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timelineOf } from "../support/golden.js";
import { badServer } from "../support/mcp.js";
import { getJson, postJson, startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * An MCP call whose job a person takes over while the call runs: the call still ends, and what
 * it answered is recorded (as Office's system actor: the agent no longer owns the job), the
 * holder's card stays the one that speaks for the job, and the chat card and the Job Drawer say
 * the same thing, after a reload and after a restart. A real MCP server over stdio whose
 * tool answers only when the test opens its gate.
 */

const T = "tnt_acme_001";
const CONV = "cnv_9f2a";
const AGENT = "ent_agent_scheduler";
const DAN = "ent_human_dan";
let t: TestServer;
let dir: string;
let marker: string;
let dan: string;
const errors: string[] = [];

const events = (jobId: string) => t.server.ledger.query({ tenant_id: T, job_id: jobId, limit: 1000 }).events as any[];
const latestCard = (items: any[], jobId: string) =>
  items
    .map((i) => i.message.card)
    .filter((c) => c?.job_id === jobId)
    .at(-1);
const jobActions = (buttons: any[]) => buttons.filter((b) => b.action.type !== "chat.ask").map((b) => b.button_id);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-hand-over-"));
  marker = join(dir, "gate");
  t = await startTestServer({
    keep: true,
    logger: {
      info() {},
      warn() {},
      error: (obj: unknown, msg?: string) => void errors.push(`${msg}: ${JSON.stringify(obj)}`),
    },
    connectors: { mcpServers: [badServer(marker)] },
  });
  dan = t.demo.humans.find((h) => h.entity_id === DAN)!.token;
  await waitFor(() => t.server.office.mcpStatus().every((s) => s.state === "connected"), 15_000, "MCP server");
  const r = await fetch(`${t.url}/v1/agents/${AGENT}/tools`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${dan}`,
      "content-type": "application/json",
      "idempotency-key": "modes-hand-over",
    },
    body: JSON.stringify({ tools: [{ name: "bad.gate", mode: "auto" }] }),
  });
  expect(r.status).toBe(200);
}, 60_000);
let closed = false;
afterAll(async () => {
  if (!closed) await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a hand-over while an MCP call runs", () => {
  it("the call's answer is recorded for the new holder; card and drawer agree after a reload and after a restart", async () => {
    const r = await postJson(`${t.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "/run bad.gate",
    });
    expect(r.status).toBe(202);
    const called = await waitFor(
      () =>
        (t.server.ledger.query({ tenant_id: T, event_type: "tool.called", limit: 1000 }).events as any[]).find(
          (e) => e.payload.tool_name === "bad.gate",
        ),
      10_000,
      "the call",
    );
    const jobId: string = called.job_id;
    // Dan takes the job while the tool has not answered yet.
    const h = await postJson(`${t.url}/v1/jobs/${jobId}/hand-over`, dan, { to_entity_id: DAN });
    expect(h.status).toBe(200);
    expect(events(jobId).some((e) => e.event_type === "tool.result")).toBe(false);
    // Written aside and renamed into place: the tool polls for the file and must never read it half-written.
    writeFileSync(`${marker}.opening`, "open");
    renameSync(`${marker}.opening`, `${marker}.open`);

    const result = await waitFor(
      () => events(jobId).find((e) => e.event_type === "tool.result"),
      10_000,
      "the tool.result",
    );
    await t.server.office.idle();
    expect(result.payload).toMatchObject({
      tool_call_id: called.payload.tool_call_id,
      status: "success",
      output: { text: "The gate says: open" },
    });
    expect(result.actor).toEqual({ entity_id: "system_office", actor_type: "system" });
    // Nothing after the result: the holder's card still speaks for the job, no agent card claims a finish.
    const all = events(jobId);
    expect(all.at(-1).event_type).toBe("tool.result");
    expect(all.filter((e) => e.actor.entity_id === AGENT && e.seq > result.seq)).toEqual([]);
    expect(errors).toEqual([]);

    const card = latestCard(await timelineOf(t.url, dan, CONV), jobId);
    expect(card.progress.status_line).toMatch(/Dan/);
    expect(card.progress.status_line).not.toMatch(/Calling/);
    const drawer = (await getJson(`${t.url}/v1/jobs/${jobId}`, dan)).body;
    expect(drawer.owner.entity_id).toBe(DAN);
    expect(drawer.actions_card_id).toBe(card.card_id);
    expect(jobActions(drawer.available_actions)).toEqual(jobActions(card.buttons));
    expect(drawer.waiting_on.map((w: any) => w.entity_id)).toEqual(
      card.progress.waiting_on.map((w: any) => w.entity_id),
    );
    // The drawer shows the call as answered, from the recorded result.
    expect(JSON.stringify(drawer)).toContain("The gate says: open");
    expect(t.server.ledger.verify(T).ok).toBe(true);

    await t.close();
    closed = true;
    const again = await startTestServer({ dataDir: t.dataDir, connectors: { mcpServers: [badServer(marker)] } });
    try {
      await again.server.office.idle();
      expect(latestCard(await timelineOf(again.url, dan, CONV), jobId)).toEqual(card);
      expect((await getJson(`${again.url}/v1/jobs/${jobId}`, dan)).body).toEqual(drawer);
      // A restart finds the call answered: nothing is resumed or written for it.
      expect(again.server.ledger.query({ tenant_id: T, job_id: jobId, limit: 1000 }).events.length).toBe(all.length);
    } finally {
      await again.close();
    }
  }, 60_000);
});
