import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../../src/config.js";
import { DEFAULT_MCP_TIMEOUT_MS, parseMcpServers } from "../../../src/office/mcp/config.js";

const parse = (o: unknown, env: Record<string, string> = {}) => parseMcpServers(JSON.stringify(o), env);
const refusal = (o: unknown, env: Record<string, string> = {}) => {
  try {
    parse(o, env);
  } catch (e) {
    return (e as Error).message;
  }
  return "accepted";
};

describe("the MCP servers file", () => {
  it("reads the common mcpServers shape: stdio and Streamable HTTP, secrets from the environment", () => {
    const servers = parse(
      {
        mcpServers: {
          files: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-filesystem", "${HOME_DIR}/shared"],
            env: { TOKEN: "${FS_TOKEN}" },
          },
          crm: {
            type: "http",
            url: "https://crm.example.com/mcp",
            headers: { Authorization: "Bearer ${CRM_TOKEN}" },
            timeout_ms: 5_000,
          },
          old: { command: "x", disabled: true },
        },
      },
      { HOME_DIR: "/srv", FS_TOKEN: "t1", CRM_TOKEN: "t2" },
    );
    expect(servers).toEqual([
      {
        name: "files",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"],
        env: { TOKEN: "t1" },
        timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
      },
      {
        name: "crm",
        transport: "http",
        url: "https://crm.example.com/mcp",
        headers: { Authorization: "Bearer t2" },
        timeoutMs: 5_000,
      },
    ]);
  });

  it.each([
    ["not JSON", "{", /not JSON/],
    ["no mcpServers", { servers: {} }, /expected \{"mcpServers"/],
    ["a name with a dot", { mcpServers: { "my.files": { command: "x" } } }, /mcpServers\.my\.files: a server name/],
    ["a built-in name", { mcpServers: { calendar: { command: "x" } } }, /built-in/],
    ["no command", { mcpServers: { a: { args: [] } } }, /mcpServers\.a\.command/],
    ["an unknown field", { mcpServers: { a: { command: "x", shell: true } } }, /mcpServers\.a: Unrecognized key/],
    ["a non-http url", { mcpServers: { a: { url: "ftp://x.example.com" } } }, /mcpServers\.a\.url/],
    [
      "the old SSE transport",
      { mcpServers: { a: { type: "sse", url: "https://x.example.com/sse" } } },
      /Streamable HTTP/,
    ],
    ["a timeout out of range", { mcpServers: { a: { command: "x", timeout_ms: 10 } } }, /mcpServers\.a\.timeout_ms/],
    [
      "a variable that is not set",
      { mcpServers: { a: { command: "x", env: { K: "${MISSING_ONE}" } } } },
      /mcpServers\.a\.env\.K uses \$\{MISSING_ONE\}, which is not set/,
    ],
  ])("refuses %s, saying where", (_what, file, message) => {
    const text = typeof file === "string" ? file : JSON.stringify(file);
    let got = "accepted";
    try {
      parseMcpServers(text, {});
    } catch (e) {
      got = (e as Error).message;
    }
    expect(got).toMatch(message);
  });

  it("a bad file stops the boot with one line naming MCP_CONFIG; no file means no servers", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-config-"));
    try {
      writeFileSync(
        join(dir, "mcp.json"),
        JSON.stringify({ mcpServers: { a: { command: "x", env: { K: "${NOPE}" } } } }),
      );
      expect(() => parseConfig({ MCP_CONFIG: "mcp.json" }, dir)).toThrow(ConfigError);
      expect(() => parseConfig({ MCP_CONFIG: "mcp.json" }, dir)).toThrow(
        /MCP_CONFIG .*mcp\.json: mcpServers\.a\.env\.K uses/,
      );
      expect(() => parseConfig({ MCP_CONFIG: "missing.json" }, dir)).toThrow(
        /MCP_CONFIG points at .*missing\.json, which cannot be read \(ENOENT\)/,
      );
      writeFileSync(
        join(dir, "mcp.json"),
        JSON.stringify({ mcpServers: { a: { command: "x", env: { K: "${SET}" } } } }),
      );
      expect(parseConfig({ MCP_CONFIG: "mcp.json", SET: "v" }, dir).mcp.servers).toMatchObject([
        { name: "a", env: { K: "v" } },
      ]);
      expect(parseConfig({}, dir).mcp).toEqual({ servers: [] });
      expect(refusal({ mcpServers: {} })).toBe("accepted");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
