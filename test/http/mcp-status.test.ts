import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/** The admin's view of the MCP servers through the real server, with the reference filesystem server and one that cannot start. */
let t: TestServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-status-"));
  t = await startTestServer({
    connectors: {
      mcpServers: [
        {
          name: "files",
          transport: "stdio",
          command: process.execPath,
          args: [resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), dir],
          env: {},
          timeoutMs: 10_000,
        },
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
    let body: { servers: Array<{ name: string; state: string; error?: string; tools: Array<{ name: string; annotations: Record<string, boolean> }> }> } = { servers: [] };
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
