/**
 * The language-model settings, as src/config.ts validates them from OFFICE_LLM_* at boot (the
 * only place the environment is read). Nothing here parses or clamps: a value out of range has
 * already stopped the start with the variable and its range.
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

/** What an unset OFFICE_LLM_* variable means. */
export const LLM_DEFAULTS = { timeoutMs: 20_000, maxTokens: 1_500, responseFormat: "json_schema" } as const;
