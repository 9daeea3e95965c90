import { z } from "zod";

/**
 * The MCP servers file (MCP_CONFIG): the common `mcpServers` shape other MCP clients read, so
 * a file written for one works here. A stdio server is a command started as a child process;
 * a remote one is a Streamable HTTP `url`. `${NAME}` anywhere in a value is taken from the
 * environment when the file is read, so secrets stay out of the file (and never reach the
 * ledger). Pure: the file's text and the environment come in, servers or one clear error out.
 */

/** Names the built-in tools use; a server may not take them. */
const RESERVED = new Set(["calendar", "mail", "office", "logline"]);

const ZServerName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, "a server name is 1–32 lowercase letters, digits, - or _, starting with a letter")
  .refine((n) => !RESERVED.has(n), { message: "calendar, mail, office and logline are the built-in tools' names" });

const ZTimeout = z.number().int().min(1_000).max(600_000);

const ZStdio = z
  .object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1).max(500),
    args: z.array(z.string().max(2_000)).max(100).default([]),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name"), z.string().max(4_000))
      .default({}),
    cwd: z.string().min(1).max(1_000).optional(),
    timeout_ms: ZTimeout.optional(),
    disabled: z.boolean().optional(),
  })
  .strict();

const ZHttp = z
  .object({
    type: z.enum(["http", "streamable-http", "streamableHttp"]).optional(),
    url: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), { message: "url must be http:// or https://" }),
    headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, "a header name"), z.string().max(4_000)).default({}),
    timeout_ms: ZTimeout.optional(),
    disabled: z.boolean().optional(),
  })
  .strict();

const ZFile = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).passthrough();

export type McpServerConfig =
  | {
      name: string;
      transport: "stdio";
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      timeoutMs: number;
    }
  | { name: string; transport: "http"; url: string; headers: Record<string, string>; timeoutMs: number };

/** How long one tool call may take when the file does not say (a call that never answers ends). */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** `${NAME}` → the environment's value; a variable that is not set is an error naming it. */
function expand(value: string, env: Record<string, string | undefined>, where: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = env[name];
    if (v === undefined) throw new Error(`${where} uses \${${name}}, which is not set in the environment`);
    return v;
  });
}

const expandAll = (o: Record<string, string>, env: Record<string, string | undefined>, where: string) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, expand(v, env, `${where}.${k}`)]));

/** Parses the file's text; throws an Error whose message says what is wrong and where. */
export function parseMcpServers(text: string, env: Record<string, string | undefined>): McpServerConfig[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  const file = ZFile.safeParse(json);
  if (!file.success) throw new Error('expected {"mcpServers": {"<name>": {…}}}');
  const out: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(file.data.mcpServers)) {
    const n = ZServerName.safeParse(name);
    if (!n.success) throw new Error(`mcpServers.${name}: ${n.error.issues[0]!.message}`);
    const isHttp = typeof raw === "object" && raw !== null && "url" in raw;
    if (typeof raw === "object" && raw !== null && "type" in raw && (raw as { type: unknown }).type === "sse")
      throw new Error(
        `mcpServers.${name}: the old HTTP+SSE transport is not supported; use the server's Streamable HTTP url`,
      );
    const parsed = isHttp ? ZHttp.safeParse(raw) : ZStdio.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.length ? `.${issue.path.join(".")}` : "";
      throw new Error(`mcpServers.${name}${path}: ${issue.message}`);
    }
    const s = parsed.data;
    if (s.disabled) continue;
    const where = `mcpServers.${name}`;
    const timeoutMs = s.timeout_ms ?? DEFAULT_MCP_TIMEOUT_MS;
    if ("url" in s) {
      out.push({
        name,
        transport: "http",
        url: expand(s.url, env, `${where}.url`),
        headers: expandAll(s.headers, env, `${where}.headers`),
        timeoutMs,
      });
    } else {
      out.push({
        name,
        transport: "stdio",
        command: expand(s.command, env, `${where}.command`),
        args: s.args.map((a, i) => expand(a, env, `${where}.args[${i}]`)),
        env: expandAll(s.env, env, `${where}.env`),
        ...(s.cwd ? { cwd: expand(s.cwd, env, `${where}.cwd`) } : {}),
        timeoutMs,
      });
    }
  }
  return out;
}
