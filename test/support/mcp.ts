import { resolve } from "node:path";
import type { McpServerConfig } from "../../src/office/settings.js";

/** The reference filesystem server over stdio, limited to `dir`. */
export const filesServer = (dir: string, name = "files"): McpServerConfig => ({
  name,
  transport: "stdio",
  command: process.execPath,
  args: [resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), dir],
  env: {},
  timeoutMs: 10_000,
});

/** The misbehaving test server (crash, hang, HTML, env); `marker` is written when a hang is cancelled. */
export const badServer = (marker: string, name = "bad"): McpServerConfig => ({
  name,
  transport: "stdio",
  command: process.execPath,
  args: [resolve("test/office/mcp/fixtures/bad-server.mjs")],
  env: { BAD_SERVER_MARKER: marker },
  timeoutMs: 30_000,
});

/** The reference "everything" server over stdio (echo, long-running with progress, images, errors). */
export const everythingServer = (name = "everything"): McpServerConfig => ({
  name,
  transport: "stdio",
  command: process.execPath,
  args: [resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
  env: {},
  timeoutMs: 20_000,
});
