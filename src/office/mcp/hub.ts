import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Clock } from "../../shared/clock.js";
import type { ToolErrorCode } from "../tools/tool.js";
import type { McpServerConfig } from "./config.js";

/**
 * The MCP client library, loaded when the first server connects: a workspace without MCP servers
 * starts without it. Errors are told apart by its classes, so they are only looked at once it is.
 */
interface Sdk {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
  StreamableHTTPError: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPError;
  McpError: typeof import("@modelcontextprotocol/sdk/types.js").McpError;
  ErrorCode: typeof import("@modelcontextprotocol/sdk/types.js").ErrorCode;
}
async function loadSdk(): Promise<Sdk> {
  const [client, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  sdk = {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
  return sdk;
}
let sdk: Sdk | undefined;

/**
 * One client per configured MCP server (the official SDK): stdio servers run as child
 * processes with a minimal environment (the SDK's short default list plus what the file
 * declares), remote ones over Streamable HTTP. A server that goes away is reconnected with
 * backoff, and its status says why it is failing. A call has a deadline, reports progress and
 * can be cancelled (the protocol's cancellation is sent); every failure is one of the tool
 * error codes the rest of Office knows.
 */

export interface McpToolInfo {
  /** `<server>.<tool>`: the name agents are allowed, cards show and the ledger records. */
  name: string;
  server: string;
  tool: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

export interface McpServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: "connecting" | "connected" | "failing" | "stopped";
  /** Why it is failing: the connection error, or the last lines the server wrote to stderr. */
  error?: string;
  /** When the state last changed (ISO). */
  since: string;
  /** How many times it was reconnected after going away. */
  restarts: number;
  tools: McpToolInfo[];
}

export type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; uri: string; mimeType?: string; text?: string; blob?: string }
  | { type: "resource_link"; uri: string; name?: string; mimeType?: string };

type McpCallOutcome =
  | { ok: true; content: McpContent[]; structured?: Record<string, unknown>; latency_ms: number }
  | { ok: false; error: { error_code: ToolErrorCode; message_safe: string; retryable: boolean }; latency_ms: number };

interface McpCallOptions {
  signal?: AbortSignal;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
}

export interface McpHub {
  /** Connects every server; resolves once each has connected or failed its first attempt. */
  start(): Promise<void>;
  status(): McpServerStatus[];
  /** Tools of the connected servers. */
  tools(): McpToolInfo[];
  tool(name: string): McpToolInfo | undefined;
  call(name: string, args: Record<string, unknown>, opts?: McpCallOptions): Promise<McpCallOutcome>;
  stop(): Promise<void>;
}

/** Reconnect delays after a server goes away; the last repeats. */
const RECONNECT_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
/**
 * How long a server has to start, shake hands and list its tools. Separate from a call's
 * deadline: a tool that must answer within a second may still take longer than that to start on
 * a busy machine, and that is no reason to call it down.
 */
const CONNECT_TIMEOUT_MS = 30_000;
const STDERR_KEEP = 2_000;

interface Conn {
  cfg: McpServerConfig;
  status: McpServerStatus;
  client?: Client | undefined;
  stderr: string;
  timer?: ReturnType<typeof setTimeout> | undefined;
  failures: number;
}

export function createMcpHub(deps: {
  servers: readonly McpServerConfig[];
  clock: Pick<Clock, "iso" | "now">;
  clientVersion: string;
  reconnectMs?: readonly number[];
  onError?: (err: unknown, where: string) => void;
}): McpHub {
  const conns = new Map<string, Conn>();
  const backoff = deps.reconnectMs ?? RECONNECT_MS;
  let stopped = false;

  const setState = (c: Conn, state: McpServerStatus["state"], error?: string) => {
    c.status = { ...c.status, state, since: deps.clock.iso(), ...(error ? { error: error.slice(0, 500) } : {}) };
    if (!error) delete c.status.error;
  };

  function transportFor(c: Conn, { StreamableHTTPClientTransport, StdioClientTransport }: Sdk): Transport {
    const cfg = c.cfg;
    if (cfg.transport === "http")
      return new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers } });
    const t = new StdioClientTransport({
      command: cfg.command,
      args: cfg.args,
      env: cfg.env,
      ...(cfg.cwd ? { cwd: cfg.cwd } : {}),
      stderr: "pipe",
    });
    t.stderr?.on("data", (chunk: Buffer) => {
      c.stderr = (c.stderr + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    return t;
  }

  async function connect(c: Conn): Promise<void> {
    if (stopped) return;
    setState(c, "connecting");
    c.stderr = "";
    const lib = sdk ?? (await loadSdk());
    const client = new lib.Client({ name: "logline", version: deps.clientVersion });
    try {
      await client.connect(transportFor(c, lib), { timeout: CONNECT_TIMEOUT_MS });
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
        tools.push(...page.tools.map((t) => describe(c.cfg.name, t)));
        cursor = page.nextCursor;
      } while (cursor && tools.length < 500);
      if (stopped) {
        await client.close();
        return;
      }
      c.client = client;
      c.failures = 0;
      c.status = { ...c.status, tools };
      setState(c, "connected");
      client.onclose = () => {
        if (c.client !== client) return;
        c.client = undefined;
        if (!stopped) fail(c, `the server went away${lastWords(c)}`, true);
      };
    } catch (err) {
      await client.close().catch(() => undefined);
      fail(c, `${connectError(err)}${lastWords(c)}`, false);
    }
  }

  const lastWords = (c: Conn) => {
    const line = c.stderr.trim().split("\n").filter(Boolean).slice(-2).join(" / ");
    return line ? ` (stderr: ${line.slice(0, 300)})` : "";
  };

  function fail(c: Conn, why: string, restart: boolean) {
    if (stopped) return;
    if (restart) c.status = { ...c.status, restarts: c.status.restarts + 1 };
    c.status = { ...c.status, tools: [] };
    setState(c, "failing", why);
    const delay = backoff[Math.min(c.failures, backoff.length - 1)] ?? 60_000;
    c.failures++;
    clearTimeout(c.timer);
    c.timer = setTimeout(() => void connect(c).catch((e) => deps.onError?.(e, "mcp.connect")), delay);
    c.timer.unref?.();
  }

  function errorOf(
    err: unknown,
    timeoutMs: number,
  ): { error_code: ToolErrorCode; message_safe: string; retryable: boolean } {
    if (sdk && err instanceof sdk.McpError) {
      const { ErrorCode } = sdk;
      if (err.code === ErrorCode.RequestTimeout)
        return {
          error_code: "PROVIDER_TIMEOUT",
          message_safe: `The tool did not answer within ${Math.round(timeoutMs / 1000)} s.`,
          retryable: true,
        };
      if (err.code === ErrorCode.ConnectionClosed)
        return {
          error_code: "PROVIDER_UNAVAILABLE",
          message_safe: "The tool's server went away during the call.",
          retryable: true,
        };
      if (err.code === ErrorCode.InvalidParams)
        return { error_code: "INVALID_INPUT", message_safe: err.message.slice(0, 300), retryable: false };
    }
    if (sdk && err instanceof sdk.StreamableHTTPError) {
      if (err.code === 401 || err.code === 403)
        return {
          error_code: "PROVIDER_AUTH_REQUIRED",
          message_safe: "The tool's server asks for credentials.",
          retryable: false,
        };
      if (err.code === 429)
        return {
          error_code: "PROVIDER_RATE_LIMIT",
          message_safe: "The tool's server asks us to slow down.",
          retryable: true,
        };
      return {
        error_code: "PROVIDER_UNAVAILABLE",
        message_safe: `The tool's server answered HTTP ${err.code ?? "error"}.`,
        retryable: true,
      };
    }
    return {
      error_code: "UNKNOWN",
      message_safe: String((err as Error)?.message ?? err).slice(0, 300),
      retryable: false,
    };
  }

  return {
    async start() {
      for (const cfg of deps.servers) {
        conns.set(cfg.name, {
          cfg,
          stderr: "",
          failures: 0,
          status: {
            name: cfg.name,
            transport: cfg.transport,
            state: "connecting",
            since: deps.clock.iso(),
            restarts: 0,
            tools: [],
          },
        });
      }
      await Promise.all([...conns.values()].map((c) => connect(c)));
    },
    status: () => [...conns.values()].map((c) => c.status),
    tools: () => [...conns.values()].flatMap((c) => c.status.tools),
    tool(name) {
      const server = conns.get(name.split(".")[0] ?? "");
      return server?.status.tools.find((t) => t.name === name);
    },
    async call(name, args, opts = {}) {
      const started = deps.clock.now();
      const took = () => Math.max(0, deps.clock.now() - started);
      const dot = name.indexOf(".");
      const c = conns.get(name.slice(0, dot));
      const tool = name.slice(dot + 1);
      if (!c || dot < 0)
        return {
          ok: false,
          error: { error_code: "INVALID_INPUT", message_safe: `No MCP server for ${name}.`, retryable: false },
          latency_ms: took(),
        };
      if (!c.client)
        return {
          ok: false,
          error: {
            error_code: "PROVIDER_UNAVAILABLE",
            message_safe: `${c.cfg.name} is not connected${c.status.error ? `: ${c.status.error}` : ""}.`.slice(0, 300),
            retryable: true,
          },
          latency_ms: took(),
        };
      try {
        const r = await c.client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: c.cfg.timeoutMs,
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.onProgress
            ? {
                onprogress: (p) =>
                  opts.onProgress!({
                    progress: p.progress,
                    ...(p.total !== undefined ? { total: p.total } : {}),
                    ...(p.message ? { message: p.message } : {}),
                  }),
              }
            : {}),
        });
        const content = ((r.content ?? []) as McpContent[]).filter((x) =>
          ["text", "image", "audio", "resource", "resource_link"].includes(x.type),
        );
        if (r.isError) {
          const text = content.flatMap((x) => (x.type === "text" ? [x.text] : [])).join(" ");
          return {
            ok: false,
            error: {
              error_code: "INVALID_INPUT",
              message_safe: (text || "The tool reported an error.").slice(0, 300),
              retryable: false,
            },
            latency_ms: took(),
          };
        }
        const structured = r.structuredContent as Record<string, unknown> | undefined;
        return { ok: true, content, ...(structured ? { structured } : {}), latency_ms: took() };
      } catch (err) {
        // The SDK reports an aborted request as a timeout: a person's cancel is recorded as a cancel.
        if (opts.signal?.aborted)
          return {
            ok: false,
            error: {
              error_code: "CANCELLED",
              message_safe: "Cancelled during the call; the server was told to stop.",
              retryable: false,
            },
            latency_ms: took(),
          };
        return { ok: false, error: errorOf(err, c.cfg.timeoutMs), latency_ms: took() };
      }
    },
    async stop() {
      stopped = true;
      await Promise.all(
        [...conns.values()].map(async (c) => {
          clearTimeout(c.timer);
          const client = c.client;
          c.client = undefined;
          setState(c, "stopped");
          await client?.close().catch(() => undefined);
        }),
      );
    },
  };
}

/** Why a connection failed, in words an admin can act on. */
function connectError(err: unknown): string {
  if (sdk && err instanceof sdk.StreamableHTTPError && (err.code === 401 || err.code === 403))
    return `HTTP ${err.code}: the server asks for credentials (check the headers in MCP_CONFIG)`;
  if (sdk && err instanceof sdk.StreamableHTTPError && err.code) return `HTTP ${err.code}: ${err.message}`;
  return (err as Error)?.message ?? String(err);
}

function describe(server: string, t: Tool): McpToolInfo {
  const a = t.annotations ?? {};
  return {
    name: `${server}.${t.name}`,
    server,
    tool: t.name,
    ...((t.title ?? a.title) ? { title: String(t.title ?? a.title).slice(0, 120) } : {}),
    description: (t.description ?? "").slice(0, 2_000),
    inputSchema: t.inputSchema as Record<string, unknown>,
    annotations: {
      ...(typeof a.readOnlyHint === "boolean" ? { readOnlyHint: a.readOnlyHint } : {}),
      ...(typeof a.destructiveHint === "boolean" ? { destructiveHint: a.destructiveHint } : {}),
      ...(typeof a.idempotentHint === "boolean" ? { idempotentHint: a.idempotentHint } : {}),
      ...(typeof a.openWorldHint === "boolean" ? { openWorldHint: a.openWorldHint } : {}),
    },
  };
}
