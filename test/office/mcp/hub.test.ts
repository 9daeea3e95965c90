import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../../src/shared/clock.js";
import { parseMcpServers, type McpServerConfig } from "../../../src/office/mcp/config.js";
import { createMcpHub, type McpHub } from "../../../src/office/mcp/hub.js";
import { createToolRouter } from "../../../src/office/tools/tool-router.js";
import { startEverythingHttp } from "./fixtures/everything-http.js";

/**
 * The MCP client hub against real servers: the reference "everything" server over stdio and
 * over Streamable HTTP, the reference filesystem server on a temporary folder, and a server
 * that crashes, hangs and reads its environment.
 */

const NODE = process.execPath;
const pkg = (name: string) => resolve("node_modules/@modelcontextprotocol", name, "dist/index.js");
const BAD = resolve("test/office/mcp/fixtures/bad-server.mjs");

const waitFor = async (what: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!what()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
};

function hubOf(servers: McpServerConfig[]): McpHub {
  return createMcpHub({ servers, clock: systemClock, clientVersion: "test", reconnectMs: [200, 400] });
}

describe("the reference everything server over stdio", () => {
  let hub: McpHub;
  beforeAll(async () => {
    hub = hubOf(
      parseMcpServers(
        JSON.stringify({ mcpServers: { everything: { command: NODE, args: [pkg("server-everything"), "stdio"] } } }),
        {},
      ),
    );
    await hub.start();
  }, 30_000);
  afterAll(() => hub.stop());

  it("connects and lists its tools with descriptions, input schemas and hints", () => {
    expect(hub.status()).toMatchObject([{ name: "everything", transport: "stdio", state: "connected", restarts: 0 }]);
    const echo = hub.tool("everything.echo");
    expect(echo).toMatchObject({ server: "everything", tool: "echo", annotations: { readOnlyHint: true } });
    expect(echo!.description.length).toBeGreaterThan(0);
    expect(echo!.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(hub.tools().length).toBeGreaterThan(5);
  });

  it("calls a tool and returns its content", async () => {
    const out = await hub.call("everything.echo", { message: "hello from LogLine" });
    expect(out.ok).toBe(true);
    expect(out.ok && out.content).toEqual([{ type: "text", text: "Echo: hello from LogLine" }]);
  });

  it("reports progress of a long-running call", async () => {
    const seen: number[] = [];
    const out = await hub.call(
      "everything.trigger-long-running-operation",
      { duration: 1, steps: 4 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(out.ok).toBe(true);
    // Each step is reported; the last may arrive with (or after) the result.
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
  });

  it("returns images as image content", async () => {
    const out = await hub.call("everything.get-tiny-image", {});
    expect(out.ok && out.content.find((c) => c.type === "image")).toMatchObject({
      type: "image",
      mimeType: "image/png",
    });
  });

  it("the one tool router lists them beside the built-in tools and runs them through their server", async () => {
    const router = createToolRouter({
      tools: [],
      runElsewhere: [{ name: "mail.send", version: "1", description: "Mail", side_effects: true }],
      clock: systemClock,
      mcp: hub,
    });
    const listed = router.list();
    expect(listed.find((t) => t.name === "mail.send")).toMatchObject({ source: "built-in" });
    expect(listed.find((t) => t.name === "everything.echo")).toMatchObject({ source: "mcp", side_effects: false });
    const out = await router.execute(
      "everything.echo",
      { message: "one path" },
      { tenant_id: "t", job_id: "j", idempotency_key: "k", attempt: 1, now: Date.now() },
    );
    expect(out).toMatchObject({
      ok: true,
      output: { content: [{ type: "text", text: "Echo: one path" }] },
      artifacts: [],
    });
    expect(
      await router.execute(
        "nowhere.echo",
        {},
        { tenant_id: "t", job_id: "j", idempotency_key: "k", attempt: 1, now: Date.now() },
      ),
    ).toMatchObject({
      ok: false,
      error: { error_code: "INVALID_INPUT" },
    });
  });

  it("arguments the server refuses are INVALID_INPUT; an unknown server is refused without a call", async () => {
    const bad = await hub.call("everything.get-sum", { a: "one" });
    expect(bad).toMatchObject({ ok: false, error: { error_code: "INVALID_INPUT", retryable: false } });
    expect(await hub.call("nowhere.echo", {})).toMatchObject({ ok: false, error: { error_code: "INVALID_INPUT" } });
  });
});

describe("the everything server over Streamable HTTP", () => {
  it("connects with a header from the environment and calls a tool", async () => {
    const http = await startEverythingHttp({ token: "s3cret-token" });
    const file = JSON.stringify({
      mcpServers: { remote: { url: http.url, headers: { Authorization: "Bearer ${REMOTE_TOKEN}" } } },
    });
    const hub = hubOf(parseMcpServers(file, { REMOTE_TOKEN: "s3cret-token" }));
    try {
      await hub.start();
      expect(hub.status()[0]).toMatchObject({ transport: "http", state: "connected" });
      const out = await hub.call("remote.echo", { message: "over http" });
      expect(out.ok && out.content[0]).toEqual({ type: "text", text: "Echo: over http" });
    } finally {
      await hub.stop();
      await http.close();
    }
  });

  it("without the credential it is failing and says why", async () => {
    const http = await startEverythingHttp({ token: "s3cret-token" });
    const hub = hubOf([{ name: "remote", transport: "http", url: http.url, headers: {}, timeoutMs: 5_000 }]);
    try {
      await hub.start();
      expect(hub.status()[0]!.state).toBe("failing");
      expect(hub.status()[0]!.error).toMatch(/HTTP 401: the server asks for credentials/);
      expect(await hub.call("remote.echo", { message: "x" })).toMatchObject({
        ok: false,
        error: { error_code: "PROVIDER_UNAVAILABLE", retryable: true },
      });
    } finally {
      await hub.stop();
      await http.close();
    }
  });
});

describe("the reference filesystem server on a temporary folder", () => {
  let dir: string;
  let hub: McpHub;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcp-fs-"));
    writeFileSync(join(dir, "hello.txt"), "hi");
    hub = hubOf([
      {
        name: "files",
        transport: "stdio",
        command: NODE,
        args: [pkg("server-filesystem"), dir],
        env: {},
        timeoutMs: 10_000,
      },
    ]);
    await hub.start();
  }, 30_000);
  afterAll(async () => {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reading tools are annotated read-only, writing ones are not", () => {
    expect(hub.tool("files.list_directory")?.annotations.readOnlyHint).toBe(true);
    expect(hub.tool("files.write_file")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it("lists the folder and writes a file that really exists afterwards", async () => {
    const list = await hub.call("files.list_directory", { path: dir });
    expect(list.ok && list.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("hello.txt") });
    const write = await hub.call("files.write_file", { path: join(dir, "note.txt"), content: "written by an agent" });
    expect(write.ok).toBe(true);
    expect(readFileSync(join(dir, "note.txt"), "utf8")).toBe("written by an agent");
  });

  it("a path outside its folder is the tool's own error, reported as INVALID_INPUT", async () => {
    const out = await hub.call("files.read_text_file", { path: "/etc/hostname" });
    expect(out).toMatchObject({ ok: false, error: { error_code: "INVALID_INPUT", retryable: false } });
    expect(!out.ok && out.error.message_safe).toMatch(/denied|outside|allowed/i);
  });
});

describe("the reference memory server", () => {
  it("keeps what one call writes for the next call to read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-memory-"));
    const hub = hubOf([
      {
        name: "memory",
        transport: "stdio",
        command: NODE,
        args: [pkg("server-memory")],
        env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
        timeoutMs: 10_000,
      },
    ]);
    try {
      await hub.start();
      const made = await hub.call("memory.create_entities", {
        entities: [{ name: "ACME", entityType: "customer", observations: ["pays by invoice"] }],
      });
      expect(made.ok).toBe(true);
      const graph = await hub.call("memory.read_graph", {});
      expect(graph.ok && graph.content[0]?.type === "text" && graph.content[0].text).toContain("pays by invoice");
    } finally {
      await hub.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("bad days", () => {
  it("a server that dies mid-call: the call is PROVIDER_UNAVAILABLE, the status says why, and it is restarted", async () => {
    const hub = hubOf([{ name: "bad", transport: "stdio", command: NODE, args: [BAD], env: {}, timeoutMs: 10_000 }]);
    try {
      await hub.start();
      const out = await hub.call("bad.crash", {});
      expect(out).toMatchObject({ ok: false, error: { error_code: "PROVIDER_UNAVAILABLE", retryable: true } });
      expect(hub.status()[0]!.state).toBe("failing");
      expect(hub.status()[0]!.error).toMatch(/went away.*about to crash/);
      await waitFor(() => hub.status()[0]!.state === "connected");
      expect(hub.status()[0]!.restarts).toBe(1);
      expect((await hub.call("bad.html", {})).ok).toBe(true);
    } finally {
      await hub.stop();
    }
  });

  it("a call that never answers ends at the deadline; a cancelled call sends the protocol's cancellation", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-bad-"));
    const marker = join(dir, "cancelled");
    const hub = hubOf([
      {
        name: "bad",
        transport: "stdio",
        command: NODE,
        args: [BAD],
        env: { BAD_SERVER_MARKER: marker },
        timeoutMs: 1_000,
      },
    ]);
    try {
      await hub.start();
      expect(await hub.call("bad.hang", {})).toMatchObject({
        ok: false,
        error: { error_code: "PROVIDER_TIMEOUT", retryable: true },
      });
      const ac = new AbortController();
      const pending = hub.call("bad.hang", { note: "cancel me" }, { signal: ac.signal });
      setTimeout(() => ac.abort(), 100);
      // A cancel is recorded as a cancel, not as the deadline passing.
      expect(await pending).toMatchObject({ ok: false, error: { error_code: "CANCELLED", retryable: false } });
      await waitFor(() => existsSync(marker));
      expect(readFileSync(marker, "utf8")).toBe("cancelled");
    } finally {
      await hub.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a stdio server sees a minimal environment plus what the file declares, never the server's secrets", async () => {
    process.env.LOGLINE_PARENT_SECRET = "do-not-leak";
    const hub = hubOf(
      parseMcpServers(
        JSON.stringify({ mcpServers: { bad: { command: NODE, args: [BAD], env: { DECLARED_VAR: "${FROM_ENV}" } } } }),
        { FROM_ENV: "yes" },
      ),
    );
    try {
      await hub.start();
      const out = await hub.call("bad.env", {});
      const names = out.ok && out.content[0]?.type === "text" ? out.content[0].text.split(",") : [];
      expect(names).toContain("DECLARED_VAR");
      expect(names).toContain("PATH");
      expect(names).not.toContain("LOGLINE_PARENT_SECRET");
    } finally {
      delete process.env.LOGLINE_PARENT_SECRET;
      await hub.stop();
    }
  });

  it("a command that cannot start is failing with the reason, and calls are refused at once", async () => {
    const hub = hubOf([
      { name: "ghost", transport: "stdio", command: "/nonexistent/mcp-server", args: [], env: {}, timeoutMs: 5_000 },
    ]);
    try {
      await hub.start();
      expect(hub.status()[0]).toMatchObject({
        state: "failing",
        error: expect.stringMatching(/ENOENT|not found|spawn/i),
      });
      expect(await hub.call("ghost.anything", {})).toMatchObject({
        ok: false,
        error: { error_code: "PROVIDER_UNAVAILABLE" },
      });
    } finally {
      await hub.stop();
    }
  });
});
