import type { Clock } from "../../shared/clock.js";
import type { McpHub } from "../mcp/hub.js";
import { ToolFailure, type ToolContext, type ToolDefinition, type ToolOutcome } from "./tool.js";

export interface ToolInfo {
  name: string;
  version: string;
  description: string;
  side_effects: boolean;
  /** Built into Office, or offered by a connected MCP server (named `<server>.<tool>`). */
  source?: "built-in" | "mcp";
}

export interface ToolRouter {
  list(): ToolInfo[];
  get(name: string): ToolDefinition<unknown> | undefined;
  /** A tool runs for an agent only when named in its `allowed_tools` (entity.registered). */
  isAllowed(allowedTools: readonly string[] | undefined, name: string): boolean;
  /** Runs a tool: validates input and output, times it, maps every failure to a seed error code. */
  execute(name: string, input: unknown, ctx: ToolContext): Promise<ToolOutcome & { latency_ms: number }>;
}

/**
 * The one router for every tool an agent can use. `tools` run here; `runElsewhere` are tools
 * another worker runs and records (mail.send is run by the outbox worker): they are listed and
 * can be allowed, but `execute` does not run them; the tools of connected MCP servers (`mcp`)
 * are listed and executed through their server. Every failure is one of the seed's codes.
 */
export function createToolRouter(deps: {
  // biome-ignore lint/suspicious/noExplicitAny: tools of every input shape share one router; each validates its own input
  tools: ToolDefinition<any>[];
  runElsewhere?: ToolInfo[];
  clock: Clock;
  mcp?: Pick<McpHub, "tools" | "tool" | "call">;
}): ToolRouter {
  const byName = new Map(deps.tools.map((t) => [t.name, t as ToolDefinition<unknown>]));
  const catalog: ToolInfo[] = [
    ...deps.tools.map((t) => ({
      name: t.name,
      version: t.version,
      description: t.description,
      side_effects: t.side_effects,
      source: "built-in" as const,
    })),
    ...(deps.runElsewhere ?? []).map((t) => ({ source: "built-in" as const, ...t })),
  ];
  const mcpInfo = (): ToolInfo[] =>
    (deps.mcp?.tools() ?? []).map((t) => ({
      name: t.name,
      version: "mcp",
      description: t.description,
      side_effects: t.annotations.readOnlyHint !== true,
      source: "mcp",
    }));
  return {
    list: () => [...catalog.map((t) => ({ ...t })), ...mcpInfo()],
    get: (name) => byName.get(name),
    isAllowed: (allowed, name) => catalog.some((t) => t.name === name) && (allowed ?? []).includes(name),
    async execute(name, input, ctx) {
      const tool = byName.get(name);
      const started = deps.clock.now();
      const done = (o: ToolOutcome) => ({ ...o, latency_ms: Math.max(0, deps.clock.now() - started) });
      if (!tool && deps.mcp?.tool(name)) {
        // An MCP tool: its server checks the arguments against the schema it published.
        const out = await deps.mcp.call(name, (input ?? {}) as Record<string, unknown>, {
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        });
        return done(
          out.ok
            ? {
                ok: true,
                output: { content: out.content, ...(out.structured ? { structured: out.structured } : {}) },
                artifacts: [],
              }
            : { ok: false, error: out.error },
        );
      }
      if (!tool)
        return done({
          ok: false,
          error: { error_code: "INVALID_INPUT", message_safe: `No tool named ${name}.`, retryable: false },
        });
      const parsed = tool.input.safeParse(input);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.join(".") ?? "";
        return done({
          ok: false,
          error: {
            error_code: "INVALID_INPUT",
            message_safe: `Invalid ${field || "input"}: ${parsed.error.issues[0]?.message ?? "invalid"}`,
            retryable: false,
          },
        });
      }
      try {
        const out = await tool.run(parsed.data, ctx);
        if (!out.ok) return done(out);
        const checked = tool.output.safeParse(out.output);
        if (!checked.success)
          return done({
            ok: false,
            error: { error_code: "UNKNOWN", message_safe: "The tool returned an unexpected answer.", retryable: true },
          });
        return done({ ok: true, output: checked.data, artifacts: out.artifacts });
      } catch (err) {
        if (err instanceof ToolFailure) {
          const retryable = !["PROVIDER_AUTH_REQUIRED", "INVALID_INPUT"].includes(err.code);
          return done({
            ok: false,
            error: {
              error_code: err.code,
              message_safe: err.message.slice(0, 300),
              retryable,
              ...(err.suggestedWaitSeconds !== undefined ? { suggested_wait_seconds: err.suggestedWaitSeconds } : {}),
            },
          });
        }
        // Unexpected errors never leak internals into the ledger.
        return done({
          ok: false,
          error: { error_code: "UNKNOWN", message_safe: "The tool failed unexpectedly.", retryable: true },
        });
      }
    },
  };
}
