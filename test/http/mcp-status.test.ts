import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesServer } from "../support/mcp.js";
import { getJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

const T = "tnt_acme_001";
const AGENT = "ent_agent_scheduler";

/**
 * The admin's view of the MCP servers through the real server (the reference filesystem server
 * and one that cannot start), and choosing per agent and tool what it may do.
 */
let t: TestServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-status-"));
  t = await startTestServer({
    connectors: {
      mcpServers: [
        filesServer(dir),
        { name: "ghost", transport: "stdio", command: "/nonexistent/mcp-server", args: [], env: {}, timeoutMs: 5_000 },
      ],
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET /v1/admin/mcp", () => {
  it("shows an admin each server: connected with its tools and hints, or failing and why", async () => {
    const admin = t.demo.humans[0]!.token;
    let body: {
      servers: Array<{
        name: string;
        state: string;
        error?: string;
        tools: Array<{ name: string; annotations: Record<string, boolean> }>;
      }>;
    } = { servers: [] };
    await waitFor(async () => {
      body = (await getJson(`${t.url}/v1/admin/mcp`, admin)).body;
      return body.servers.every((s) => s.state !== "connecting");
    });
    const files = body.servers.find((s) => s.name === "files")!;
    expect(files.state).toBe("connected");
    expect(files.tools.find((x) => x.name === "files.list_directory")?.annotations.readOnlyHint).toBe(true);
    expect(files.tools.find((x) => x.name === "files.write_file")?.annotations.readOnlyHint).toBe(false);
    const ghost = body.servers.find((s) => s.name === "ghost")!;
    expect(ghost.state).toBe("failing");
    expect(ghost.error).toMatch(/ENOENT/);
  });

  it("is for admins only", async () => {
    const member = t.demo.humans[1]!.token;
    const r = await getJson(`${t.url}/v1/admin/mcp`, member);
    expect(r.status).toBe(403);
  });
});

const put = (token: string, agent: string, body: unknown, key = `k-${Math.random()}`) =>
  fetch(`${t.url}/v1/agents/${agent}/tools`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(body),
  });

describe("/v1/agents/:id/tools", () => {
  it("lists built-in and MCP tools with the agent's modes and the suggested ones", async () => {
    const admin = t.demo.humans[0]!.token;
    await waitFor(async () =>
      (await getJson(`${t.url}/v1/agents/${AGENT}/tools`, admin)).body.tools?.some(
        (x: { name: string }) => x.name === "files.list_directory",
      ),
    );
    const { body } = await getJson(`${t.url}/v1/agents/${AGENT}/tools`, admin);
    const byName = new Map(body.tools.map((x: { name: string }) => [x.name, x]));
    expect(byName.get("calendar.create_invite")).toMatchObject({
      source: "built-in",
      mode: "approve",
      mode_set: false,
      modes: ["approve", "off"],
    });
    expect(byName.get("files.list_directory")).toMatchObject({
      source: "mcp",
      server: "files",
      mode: "off",
      suggested_mode: "auto",
      available: true,
    });
    expect(byName.get("files.write_file")).toMatchObject({
      mode: "off",
      suggested_mode: "approve",
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
  });

  it("an admin's choices are ledger events written as the admin; the same choices again write nothing", async () => {
    const admin = t.demo.humans[0]!.token;
    const choices = {
      tools: [
        { name: "files.list_directory", mode: "auto" },
        { name: "files.write_file", mode: "approve" },
      ],
    };
    const r = await put(admin, AGENT, choices);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.created_event_ids).toHaveLength(2);
    expect(body.tools.find((x: { name: string }) => x.name === "files.write_file")).toMatchObject({
      mode: "approve",
      mode_set: true,
    });
    const events = t.server.ledger.query({ tenant_id: T, event_type: "agent.tool_mode_set", limit: 100 }).events;
    expect(
      events.map((e) => [
        e.actor.entity_id,
        (e.payload as { tool_name: string }).tool_name,
        (e.payload as { mode: string }).mode,
      ]),
    ).toEqual([
      [t.demo.humans[0]!.entity_id, "files.list_directory", "auto"],
      [t.demo.humans[0]!.entity_id, "files.write_file", "approve"],
    ]);
    await waitFor(
      async () =>
        (await getJson(`${t.url}/v1/agents/${AGENT}/tools`, admin)).body.tools.find(
          (x: { name: string }) => x.name === "files.list_directory",
        )?.mode === "auto",
    );
    const again = await put(admin, AGENT, choices);
    expect((await again.json()).created_event_ids).toEqual([]);
    expect(t.server.ledger.query({ tenant_id: T, event_type: "agent.tool_mode_set", limit: 100 }).events).toHaveLength(
      2,
    );
  });

  it.each([
    ["a tool nobody offers", { tools: [{ name: "files.format_disk", mode: "approve" }] }, 400],
    ["a built-in tool set to auto", { tools: [{ name: "calendar.create_invite", mode: "auto" }] }, 400],
    [
      "a tool named twice",
      {
        tools: [
          { name: "files.list_directory", mode: "auto" },
          { name: "files.list_directory", mode: "off" },
        ],
      },
      400,
    ],
    ["no tools", { tools: [] }, 400],
    ["a mode that does not exist", { tools: [{ name: "files.list_directory", mode: "sometimes" }] }, 400],
    ["an unknown field", { tools: [{ name: "files.list_directory", mode: "auto" }], extra: 1 }, 400],
  ])("refuses %s with the standard error and writes nothing", async (_what, body, status) => {
    const admin = t.demo.humans[0]!.token;
    const before = t.server.ledger.query({ tenant_id: T, event_type: "agent.tool_mode_set", limit: 100 }).events.length;
    const r = await put(admin, AGENT, body);
    expect(r.status).toBe(status);
    expect((await r.json()).error.code).toBe("VALIDATION_ERROR");
    expect(t.server.ledger.query({ tenant_id: T, event_type: "agent.tool_mode_set", limit: 100 }).events.length).toBe(
      before,
    );
  });

  it("switching off a tool whose server is gone is allowed; a person is not an agent; members may not choose", async () => {
    const admin = t.demo.humans[0]!.token;
    expect((await put(admin, AGENT, { tools: [{ name: "ghost.anything", mode: "off" }] })).status).toBe(200);
    expect(
      (await put(admin, t.demo.humans[1]!.entity_id, { tools: [{ name: "files.list_directory", mode: "auto" }] }))
        .status,
    ).toBe(404);
    const member = await put(t.demo.humans[1]!.token, AGENT, {
      tools: [{ name: "files.list_directory", mode: "auto" }],
    });
    expect(member.status).toBe(403);
  });
});

describe("a built-in tool switched off", () => {
  it("is not proposed any more: the agent says it cannot do the work, and switching it back restores it", async () => {
    const admin = t.demo.humans[0]!.token;
    const jobs = () => t.server.ledger.query({ tenant_id: T, event_type: "job.created", limit: 1000 }).events.length;
    expect((await put(admin, AGENT, { tools: [{ name: "calendar.create_invite", mode: "off" }] })).status).toBe(200);
    await waitFor(
      async () =>
        (await getJson(`${t.url}/v1/agents/${AGENT}/tools`, admin)).body.tools.find(
          (x: { name: string }) => x.name === "calendar.create_invite",
        )?.mode === "off",
    );
    const before = jobs();
    const ask = await fetch(`${t.url}/v1/conversations/cnv_9f2a/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json", "idempotency-key": "off-ask" },
      body: JSON.stringify({ kind: "text", body_text: "Can you schedule a 30-min call with Maria next week?" }),
    });
    expect(ask.status).toBe(202);
    await t.server.office.idle();
    const replies = async () =>
      (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline?limit=1000`, admin)).body.items.filter(
        (i: any) => i.sender.entity_id === AGENT && i.message.kind === "text",
      );
    await waitFor(async () => (await replies()).length > 0);
    expect(jobs()).toBe(before);
    expect((await put(admin, AGENT, { tools: [{ name: "calendar.create_invite", mode: "approve" }] })).status).toBe(
      200,
    );
  });
});
