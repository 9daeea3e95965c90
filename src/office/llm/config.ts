import { z } from "zod";
import { bool, ConfigError, httpUrl, int, oneOf } from "../../shared/env.js";

/**
 * Office's planner settings: the rule-based planner, or a language model behind an
 * OpenAI-compatible endpoint (OFFICE_LLM_*). Checked once at boot; a value out of range stops the
 * start with the variable and its range, so nothing past this file parses or clamps.
 */

function isJsonObject(v: string): boolean {
  try {
    const parsed: unknown = JSON.parse(v);
    return !!parsed && typeof parsed === "object" && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

export const PLANNER_ENV = z.object({
  OFFICE_PLANNER: oneOf("OFFICE_PLANNER", ["rules", "llm"]).optional(),
  OFFICE_LLM_BASE_URL: httpUrl("OFFICE_LLM_BASE_URL").optional(),
  OFFICE_LLM_MODEL: z.string().trim().min(1).optional(),
  OFFICE_LLM_API_KEY: z.string().trim().min(1).optional(),
  OFFICE_LLM_TIMEOUT_MS: int("OFFICE_LLM_TIMEOUT_MS", 1_000, 600_000).optional(),
  OFFICE_LLM_LOG_FULL: bool("OFFICE_LLM_LOG_FULL").optional(),
  OFFICE_LLM_MAX_TOKENS: int("OFFICE_LLM_MAX_TOKENS", 64, 8_000).optional(),
  OFFICE_LLM_RESPONSE_FORMAT: oneOf("OFFICE_LLM_RESPONSE_FORMAT", ["json_schema", "json_object"]).optional(),
  OFFICE_LLM_EXTRA_BODY: z
    .string()
    .trim()
    .refine(isJsonObject, { message: 'OFFICE_LLM_EXTRA_BODY must be a JSON object, e.g. {"think":false}' })
    .transform((v) => JSON.parse(v) as Record<string, unknown>)
    .optional(),
});

type PlannerEnv = z.infer<typeof PLANNER_ENV>;

export interface PlannerSettings {
  planner: "rules" | "llm";
  llm?: LlmConfig;
}

/** The planner's checked variables → its settings; a model planner needs its endpoint and model. */
export function plannerSettings(e: PlannerEnv): PlannerSettings {
  const planner = e.OFFICE_PLANNER ?? "rules";
  if (planner === "rules") return { planner };
  if (!e.OFFICE_LLM_BASE_URL)
    throw new ConfigError(
      "OFFICE_LLM_BASE_URL",
      "Invalid configuration: OFFICE_LLM_BASE_URL is required when OFFICE_PLANNER=llm (an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1)",
    );
  if (!e.OFFICE_LLM_MODEL)
    throw new ConfigError(
      "OFFICE_LLM_MODEL",
      "Invalid configuration: OFFICE_LLM_MODEL is required when OFFICE_PLANNER=llm (the model name the endpoint serves)",
    );
  return {
    planner,
    llm: {
      baseUrl: e.OFFICE_LLM_BASE_URL,
      model: e.OFFICE_LLM_MODEL,
      ...(e.OFFICE_LLM_API_KEY ? { apiKey: e.OFFICE_LLM_API_KEY } : {}),
      timeoutMs: e.OFFICE_LLM_TIMEOUT_MS ?? LLM_DEFAULTS.timeoutMs,
      logFull: e.OFFICE_LLM_LOG_FULL ?? false,
      maxTokens: e.OFFICE_LLM_MAX_TOKENS ?? LLM_DEFAULTS.maxTokens,
      responseFormat: e.OFFICE_LLM_RESPONSE_FORMAT ?? LLM_DEFAULTS.responseFormat,
      ...(e.OFFICE_LLM_EXTRA_BODY ? { extraBody: e.OFFICE_LLM_EXTRA_BODY } : {}),
    },
  };
}

export interface LlmConfig {
  /** OpenAI-compatible base, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Wall time of one HTTP attempt. */
  timeoutMs: number;
  /** Output token cap sent as `max_tokens`. */
  maxTokens: number;
  /** `json_schema` asks for structured output; `json_object` is plain JSON mode for older servers. */
  responseFormat: "json_schema" | "json_object";
  /** Extra request fields some servers want (Ollama `think:false`, vLLM `chat_template_kwargs`). */
  extraBody?: Record<string, unknown>;
  /** Store full packets instead of the redacted form (debugging only). */
  logFull: boolean;
}

/** What an unset OFFICE_LLM_* variable means. */
const LLM_DEFAULTS = { timeoutMs: 20_000, maxTokens: 1_500, responseFormat: "json_schema" } as const;
