/**
 * LLM planner configuration, read once from the environment by the composition root.
 * Everything has a safe default except the endpoint and the model name.
 */
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

export type LlmConfigResult = { ok: true; config: LlmConfig } | { ok: false; reason: string };

export function readLlmConfig(env: Record<string, string | undefined>): LlmConfigResult {
  const baseUrl = env.OFFICE_LLM_BASE_URL?.trim();
  const model = env.OFFICE_LLM_MODEL?.trim();
  if (!baseUrl) return { ok: false, reason: "OFFICE_LLM_BASE_URL is not set" };
  if (!model) return { ok: false, reason: "OFFICE_LLM_MODEL is not set" };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { ok: false, reason: "OFFICE_LLM_BASE_URL is not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "OFFICE_LLM_BASE_URL must be http(s)" };
  let extraBody: Record<string, unknown> | undefined;
  if (env.OFFICE_LLM_EXTRA_BODY) {
    try {
      const parsed: unknown = JSON.parse(env.OFFICE_LLM_EXTRA_BODY);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      extraBody = parsed as Record<string, unknown>;
    } catch {
      return { ok: false, reason: "OFFICE_LLM_EXTRA_BODY must be a JSON object" };
    }
  }
  const apiKey = env.OFFICE_LLM_API_KEY?.trim();
  return {
    ok: true,
    config: {
      baseUrl: baseUrl.replace(/\/+$/, ""),
      model,
      ...(apiKey ? { apiKey } : {}),
      timeoutMs: boundedInt(env.OFFICE_LLM_TIMEOUT_MS, 20_000, 1_000, 120_000),
      maxTokens: boundedInt(env.OFFICE_LLM_MAX_TOKENS, 1_500, 64, 8_000),
      responseFormat: env.OFFICE_LLM_RESPONSE_FORMAT === "json_object" ? "json_object" : "json_schema",
      ...(extraBody ? { extraBody } : {}),
      logFull: env.OFFICE_LLM_LOG_FULL === "1",
    },
  };
}

function boundedInt(raw: string | undefined, dflt: number, min: number, max: number): number {
  const n = raw === undefined ? NaN : Number(raw);
  if (!Number.isFinite(n)) return dflt;
  return Math.min(max, Math.max(min, Math.round(n)));
}
