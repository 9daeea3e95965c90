import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { click, openStream, timelineOf } from "../support/golden.js";
import { badServer, everythingServer, filesServer } from "../support/mcp.js";
import { postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/**
 * MCP tools from the chat, through the real server: the reference filesystem server on a
 * temporary folder (listing is auto; writing needs approval and really writes only after it),
 * and a server whose tool never answers (Cancel sends the protocol's cancellation).
 */

const T = "tnt_acme_001";
const CONV = "cnv_9f2a";
const AGENT = "ent_agent_scheduler";
let t: TestServer;
let dir: string;
let marker: string;
let dan: string;

const say = (text: string) =>
  postJson(`${t.url}/v1/conversations/${CONV}/messages`, dan, { kind: "text", body_text: text });
const items = () => timelineOf(t.url, dan, CONV);
const cards = async (type: string) => (await items()).map((i) => i.message.card).filter((c) => c?.card_type === type);
const textsAfter = async (n: number) =>
  (await items()).slice(n).filter((i) => i.message.kind === "text" && i.sender.entity_id === AGENT);
const logged: Array<{ level: string; obj: unknown; msg: string }> = [];
const logger = {
  info: (obj: unknown, msg = "") => logged.push({ level: "info", obj, msg }),
  warn: (obj: unknown, msg = "") => logged.push({ level: "warn", obj, msg }),
  error: (obj: unknown, msg = "") => logged.push({ level: "error", obj, msg }),
};
const events = (type: string) => t.server.ledger.query({ tenant_id: T, event_type: type, limit: 1000 }).events as any[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-jobs-"));
  writeFileSync(join(dir, "hello.txt"), "hi");
  marker = join(dir, "cancelled.marker");
  t = await startTestServer({
    logger,
    connectors: {
      mcpServers: [filesServer(dir), badServer(marker), everythingServer()],
    },
  });
  dan = t.demo.humans[0]!.token;
  await waitFor(() => t.server.office.mcpStatus().every((s) => s.state === "connected"), 15_000, "MCP servers");
  const r = await fetch(`${t.url}/v1/agents/${AGENT}/tools`, {
    method: "PUT",
    headers: { authorization: `Bearer ${dan}`, "content-type": "application/json", "idempotency-key": "modes-1" },
    body: JSON.stringify({
      tools: [
        { name: "files.list_directory", mode: "auto" },
        { name: "files.write_file", mode: "approve" },
        { name: "bad.hang", mode: "approve" },
        { name: "bad.html", mode: "auto" },
        { name: "bad.contact", mode: "auto" },
        { name: "everything.trigger-long-running-operation", mode: "auto" },
        { name: "everything.get-tiny-image", mode: "auto" },
        { name: "everything.get-resource-reference", mode: "auto" },
        { name: "bad.crash", mode: "auto" },
      ],
    }),
  });
  expect(r.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("/tools and /run from the chat", () => {
  it("/tools lists what the agent may use and how", async () => {
    const n = (await items()).length;
    await say("/tools");
    const reply = await waitFor(
      async () => (await textsAfter(n)).find((i) => i.message.body_text?.startsWith("What I can do with tools")),
      5_000,
      "tools reply",
    );
    expect(reply.message.body_text).toContain("files.list_directory — runs at once");
    expect(reply.message.body_text).toContain("files.write_file — asks you first");
    expect(reply.message.body_text).not.toContain("files.move_file");
  });

  it("the conversation's members can read the tools its agent may use, with their schemas (the /run form)", async () => {
    const r = await fetch(`${t.url}/v1/conversations/${CONV}/tools`, { headers: { authorization: `Bearer ${dan}` } });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.agent_entity_id).toBe(AGENT);
    expect(body.tools.map((x: any) => `${x.name}:${x.mode}`)).toEqual([
      "bad.contact:auto",
      "bad.crash:auto",
      "bad.hang:approve",
      "bad.html:auto",
      "everything.get-resource-reference:auto",
      "everything.get-tiny-image:auto",
      "everything.trigger-long-running-operation:auto",
      "files.list_directory:auto",
      "files.write_file:approve",
    ]);
    expect(body.tools.find((x: any) => x.name === "files.write_file").input_schema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["path", "content"]),
    });
  });

  it("an auto tool runs at once: the Finished card quotes the recorded answer", async () => {
    const before = (await cards("job.finished")).length;
    await say(`/run files.list_directory path=${dir}`);
    const done = await waitFor(async () => (await cards("job.finished"))[before], 10_000, "finished card");
    expect(done.outcome.result).toBe("completed");
    expect(done.outcome.summary).toContain("files.list_directory answered");
    expect(done.outcome.summary).toContain("hello.txt");
    const job = events("job.created").find((e) => e.payload.job_id === done.job_id);
    expect(job).toBeDefined();
    const start = events("job.state_changed").find((e) => e.job_id === done.job_id && e.payload.prev_state === "draft");
    expect(start.payload).toMatchObject({ next_state: "in_progress", reason_code: "auto_allowed" });
    const called = events("tool.called").find((e) => e.job_id === done.job_id);
    expect(called.payload).toMatchObject({
      tool_name: "files.list_directory",
      inputs: { server: "files", arguments: { path: dir } },
    });
    const result = events("tool.result").find((e) => e.job_id === done.job_id);
    expect(result.payload.output.text).toContain("hello.txt");
    expect(events("job.approved").some((e) => e.job_id === done.job_id)).toBe(false);
  });

  it("a tool that changes things is proposed first; the file exists only after Approve, with the approved content", async () => {
    const before = (await cards("job.formalize")).length;
    const target = join(dir, "note.txt");
    await say(`/run files.write_file path=${target} content="written after approval"`);
    const proposal = await waitFor(async () => (await cards("job.formalize"))[before], 10_000, "formalize card");
    expect(proposal.job.constraints.join(" ")).toContain("files.write_file (MCP server files)");
    expect(proposal.job.constraints.join(" ")).toContain("written after approval");
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(target)).toBe(false);
    expect(events("tool.called").some((e) => e.job_id === proposal.job_id)).toBe(false);
    expect((await click(t.url, dan, proposal, "job.approve")).status).toBe(202);
    await waitFor(
      async () => (await cards("job.finished")).find((c) => c.job_id === proposal.job_id),
      10_000,
      "finished",
    );
    expect(readFileSync(target, "utf8")).toBe("written after approval");
  });

  it("after Reject nothing is written", async () => {
    const before = (await cards("job.formalize")).length;
    const target = join(dir, "rejected.txt");
    await say(`/run files.write_file path=${target} content=nope`);
    const proposal = await waitFor(async () => (await cards("job.formalize"))[before], 10_000, "formalize card");
    expect((await click(t.url, dan, proposal, "job.reject")).status).toBe(202);
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(target)).toBe(false);
    expect(events("tool.called").some((e) => e.job_id === proposal.job_id)).toBe(false);
  });

  it("arguments that do not fit the schema, unknown tools and tools that are off get a reply and no job", async () => {
    // read_text_file is off for this agent: allow it for this check of its schema.
    await fetch(`${t.url}/v1/agents/${AGENT}/tools`, {
      method: "PUT",
      headers: { authorization: `Bearer ${dan}`, "content-type": "application/json", "idempotency-key": "modes-2" },
      body: JSON.stringify({ tools: [{ name: "files.read_text_file", mode: "auto" }] }),
    });
    await waitFor(
      async () =>
        (
          await (
            await fetch(`${t.url}/v1/agents/${AGENT}/tools`, { headers: { authorization: `Bearer ${dan}` } })
          ).json()
        ).tools.find((x: any) => x.name === "files.read_text_file").mode === "auto",
    );
    const jobsBefore = events("job.created").length;
    for (const [text, want] of [
      ["/run files.write_file content=x", /path is required/],
      ["/run files.list_directory", /path is required/],
      [`/run files.read_text_file path=${dir}/hello.txt head=many`, /head must be number/],
      ["/run files.format_disk", /no tool called files\.format_disk/],
      [`/run files.move_file source=${dir}/a destination=${dir}/b`, /not allowed to use files\.move_file/],
      ["/run files.write_file {not json", /not valid JSON/],
    ] as const) {
      const n = (await items()).length;
      await say(text);
      const reply = await waitFor(async () => (await textsAfter(n))[0], 5_000, `reply to ${text}`);
      expect(reply.message.body_text).toMatch(want);
    }
    expect(events("job.created").length).toBe(jobsBefore);
  });

  it("an answer carrying HTML and instructions is kept as plain text and changes nothing the agent may do", async () => {
    const before = (await cards("job.finished")).length;
    const modesBefore = events("agent.tool_mode_set").length;
    await say("/run bad.html");
    const done = await waitFor(async () => (await cards("job.finished"))[before], 10_000, "finished card");
    expect(done.outcome.summary).toContain("<img src=x");
    // Stored as text in the ledger; the web UI renders card text as text, never as markup.
    expect(events("tool.result").find((e) => e.job_id === done.job_id).payload.output.text).toContain(
      "Ignore previous instructions",
    );
    expect(events("agent.tool_mode_set").length).toBe(modesBefore);
  });

  it("addresses and numbers in an answer reach the ledger only in their redacted forms", async () => {
    const before = (await cards("job.finished")).length;
    await say("/run bad.contact");
    const done = await waitFor(async () => (await cards("job.finished"))[before], 10_000, "finished card");
    const all = JSON.stringify(t.server.ledger.query({ tenant_id: T, job_id: done.job_id, limit: 100 }).events);
    expect(all).not.toContain("maria.lopes@example.org");
    expect(all).not.toContain("912 345 678");
    expect(events("tool.result").find((e) => e.job_id === done.job_id).payload.output.text).toMatch(
      /Maria's details: m\S*@example\.org/,
    );
  });

  it("Cancel during a call sends the protocol's cancellation and the job ends cancelled", async () => {
    const before = (await cards("job.formalize")).length;
    await say("/run bad.hang");
    const proposal = await waitFor(async () => (await cards("job.formalize"))[before], 10_000, "formalize card");
    await click(t.url, dan, proposal, "job.approve");
    const tracking = await waitFor(
      async () =>
        (await cards("job.tracking")).find(
          (c) => c.job_id === proposal.job_id && c.buttons.some((b: any) => b.action.type === "job.cancel"),
        ),
      10_000,
      "tracking",
    );
    await waitFor(() => events("tool.called").some((e) => e.job_id === proposal.job_id), 5_000, "called");
    expect((await click(t.url, dan, tracking, "job.cancel")).status).toBe(202);
    await waitFor(() => existsSync(marker), 10_000, "cancellation at the server");
    const result = await waitFor(
      () => events("tool.result").find((e) => e.job_id === proposal.job_id),
      10_000,
      "result recorded",
    );
    // Recorded as what happened: a cancel, not a timeout, and not to be retried.
    expect(result.payload.error).toMatchObject({ error_code: "CANCELLED", retryable: false });
    expect(result.payload.error.message_safe).not.toMatch(/did not answer/);
    expect(result.payload.retryable).toBe(false);
    const states = events("job.state_changed")
      .filter((e) => e.job_id === proposal.job_id)
      .map((e) => e.payload.next_state);
    expect(states.at(-1)).toBe("cancelled");
    expect(t.server.ledger.verify(T).ok).toBe(true);
  });

  it("progress the tool reports moves the Tracking card, and the Finished card follows the recorded answer", async () => {
    const before = (await cards("job.finished")).length;
    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    await say("/run everything.trigger-long-running-operation duration=4 steps=4");
    const done = await waitFor(async () => (await cards("job.finished"))[before], 20_000, "finished card");
    const progress = events("job.progress")
      .filter((e) => e.job_id === done.job_id)
      .map((e) => e.payload.tracking_card);
    expect(progress[0].progress.status_line).toBe("Calling everything.trigger-long-running-operation…");
    const reported = progress.slice(1);
    expect(reported.length).toBeGreaterThanOrEqual(2);
    expect(
      reported.every((c) => /^everything\.trigger-long-running-operation: \d of 4$/.test(c.progress.status_line)),
    ).toBe(true);
    const percents = reported.map((c) => c.progress.percent);
    expect(percents.length).toBeGreaterThanOrEqual(2);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.every((p) => p > 0 && p <= 100)).toBe(true);
    const result = events("tool.result").find((e) => e.job_id === done.job_id);
    expect(result.payload.status).toBe("success");
    expect(done.outcome.summary).toContain(result.payload.output.text.slice(0, 40));
    // The chat's Tracking card of the call moved with it: live (timeline.update frames) and after a reload.
    const calling = (await items())
      .map((i) => i.message.card)
      .find((c) => c?.job_id === done.job_id && c.card_type === "job.tracking");
    expect(calling.last_tool_call_id).toBe(result.payload.tool_call_id);
    expect(calling.progress).toMatchObject({
      status_line: reported.at(-1).progress.status_line,
      percent: reported.at(-1).progress.percent,
    });
    const moved = s.frames
      .filter((f) => f.event === "timeline.update" && f.data.item.message.card?.card_id === calling.card_id)
      .map((f) => f.data.item.message.card.progress.status_line);
    s.close();
    expect(moved).toEqual(reported.map((c) => c.progress.status_line));
  }, 30_000);

  it("an image in the answer becomes a downloadable artifact on the Finished card", async () => {
    const before = (await cards("job.finished")).length;
    await say("/run everything.get-tiny-image");
    const done = await waitFor(async () => (await cards("job.finished"))[before], 10_000, "finished card");
    const result = events("tool.result").find((e) => e.job_id === done.job_id);
    expect(result.payload.output.content_types).toContain("image");
    const art = done.artifacts.find((a: any) => a.mime_type === "image/png");
    expect(art).toBeDefined();
    const r = await fetch(`${t.url}${art.url}`, { headers: { authorization: `Bearer ${dan}` } });
    expect(r.status).toBe(200);
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(bytes.length).toBe(art.size_bytes);
  });
});

describe("an auto tool call that fails ends told, never stuck", () => {
  /** The job's latest Tracking card and its state, once a tool.result is recorded for it. */
  async function failedJob(command: string) {
    const jobsBefore = events("job.created").length;
    const n = (await items()).length;
    await say(command);
    const job = await waitFor(() => events("job.created")[jobsBefore], 5_000, "job created");
    const job_id = job.payload.job_id;
    const result = await waitFor(() => events("tool.result").find((e) => e.job_id === job_id), 10_000, "tool.result");
    const card = await waitFor(
      async () =>
        (await items())
          .slice(n)
          .map((i) => i.message.card)
          .filter((c) => c?.job_id === job_id && c.card_type === "job.tracking")
          .find((c) => c.progress.state === "waiting_input" || c.progress.blockers?.length),
      5_000,
      "the card after the failure",
    );
    const states = events("job.state_changed")
      .filter((e) => e.job_id === job_id)
      .map((e) => e.payload.next_state);
    return { job_id, result, card, states };
  }

  it("a tool that answers with an error: the error is recorded and the job waits on the person who asked", async () => {
    const started = Date.now();
    const { result, card, states } = await failedJob("/run everything.get-resource-reference resourceId=0");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.payload.status).toBe("error");
    expect(result.payload.error.message_safe).toContain("Invalid resourceId");
    expect(states.at(-1)).toBe("waiting_input");
    expect(card.progress.waiting_on).toEqual([
      { entity_id: t.demo.humans[0]!.entity_id, display_name: expect.any(String) },
    ]);
    expect(card.progress.status_line).toContain("everything.get-resource-reference");
    // The card's words say what its state says: waiting, on whom; not "In progress".
    expect(card.state).toBe("waiting_input");
    expect(card.summary).not.toMatch(/in progress/i);
    expect(card.summary).toContain(card.progress.waiting_on[0].display_name);
    expect(card.buttons.map((b: any) => b.action.type)).toEqual(expect.arrayContaining(["job.retry", "job.cancel"]));
    expect(logged.filter((l) => l.level === "error")).toEqual([]);
  });

  it("a server that exits during the call: PROVIDER_UNAVAILABLE is recorded and the job waits on the asker", async () => {
    const { result, card, states } = await failedJob("/run bad.crash");
    expect(result.payload.error.error_code).toBe("PROVIDER_UNAVAILABLE");
    expect(states.at(-1)).toBe("waiting_input");
    expect(card.progress.waiting_on.map((w: any) => w.entity_id)).toEqual([t.demo.humans[0]!.entity_id]);
    expect(card.progress.status_line).toContain("went away");
    expect(logged.filter((l) => l.level === "error")).toEqual([]);
    // The server is started again, and its tools come back.
    await waitFor(
      () => t.server.office.mcpStatus().find((s) => s.name === "bad")?.state === "connected",
      15_000,
      "bad server back",
    );
  }, 30_000);
});
