import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { ConfigError } from "../../shared/env.js";
import { type McpServerConfig, parseMcpServers } from "./config.js";

/** Office's MCP settings: the file naming the MCP servers agents may use (MCP_CONFIG). */

export const MCP_ENV = z.object({
  MCP_CONFIG: z.string().trim().min(1).optional(),
});

export interface McpSettings {
  /** The file, resolved; absent when none is configured. */
  file?: string;
  servers: McpServerConfig[];
}

/**
 * Reads and checks the servers file at boot: a bad file stops the boot like a bad variable.
 * `env` fills the file's `${NAME}` references; relative paths start at `cwd`.
 */
export function mcpSettings(
  e: z.infer<typeof MCP_ENV>,
  env: Record<string, string | undefined>,
  cwd: string,
): McpSettings {
  if (!e.MCP_CONFIG) return { servers: [] };
  const file = resolve(cwd, e.MCP_CONFIG);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(
      "MCP_CONFIG",
      `Invalid configuration: MCP_CONFIG points at ${file}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    return { file, servers: parseMcpServers(text, env) };
  } catch (err) {
    throw new ConfigError("MCP_CONFIG", `Invalid configuration: MCP_CONFIG ${file}: ${(err as Error).message}`);
  }
}
