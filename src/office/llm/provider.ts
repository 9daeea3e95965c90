import type { Clock } from "../../shared/clock.js";
import type { LlmConfig } from "./config.js";

interface ChatMessage {
  role: "system" | "user";
  content: string;
}

interface ChatRequest {
  messages: ChatMessage[];
  /** JSON schema the answer must follow (sent as `response_format` when the server supports it). */
  schema: Record<string, unknown>;
  schemaName: string;
}

/** What one call produced. Transport failures and invalid answers are values, never throws. */
export type ChatOutcome =
  | {
      kind: "answer";
      content: string;
      finishReason: string | null;
      model: string | null;
      attempts: number;
      latencyMs: number;
    }
  | { kind: "refused"; refusal: string; attempts: number; latencyMs: number }
  | { kind: "truncated"; content: string; attempts: number; latencyMs: number }
  | {
      kind: "unavailable";
      reason: "timeout" | "rate_limited" | "server_error" | "network" | "bad_status" | "bad_body";
      status?: number;
      attempts: number;
      latencyMs: number;
    };

/** An outcome before the call-level bookkeeping is added (distributes over the union). */
type Bare = ChatOutcome extends infer T ? (T extends unknown ? Omit<T, "attempts" | "latencyMs"> : never) : never;

export interface ChatProvider {
  readonly model: string;
  /**
   * One logical model call. A transport failure with no answer (timeout, 429, 5xx, network)
   * is retried once after a short pause; anything the model did answer is returned as is,
   * because asking again would be a second call for the same message.
   */
  complete(req: ChatRequest): Promise<ChatOutcome>;
  /** Cheap reachability check used at boot (`GET /models`); never throws. */
  probe(): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export interface ChatProviderDeps {
  config: Pick<LlmConfig, "baseUrl" | "model" | "apiKey" | "timeoutMs" | "maxTokens" | "responseFormat" | "extraBody">;
  clock?: Pick<Clock, "now">;
  /** Pause before the single retry; kept short so a person never waits long on a dead server. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}

export function createChatProvider(deps: ChatProviderDeps): ChatProvider {
  const { config } = deps;
  const doFetch = deps.fetch ?? fetch;
  const now = () => (deps.clock ? deps.clock.now() : Date.now());
  const retryDelayMs = deps.retryDelayMs ?? 500;
  const endpoint = /\/chat\/completions$/.test(config.baseUrl) ? config.baseUrl : `${config.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

  function body(req: ChatRequest): string {
    const responseFormat =
      config.responseFormat === "json_schema"
        ? { type: "json_schema", json_schema: { name: req.schemaName, strict: true, schema: req.schema } }
        : { type: "json_object" };
    return JSON.stringify({
      ...(config.extraBody ?? {}),
      model: config.model,
      messages: req.messages,
      temperature: 0,
      max_tokens: config.maxTokens,
      stream: false,
      response_format: responseFormat,
    });
  }

  async function attempt(payload: string): Promise<Bare & { retryable?: boolean }> {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), config.timeoutMs);
    try {
      const res = await doFetch(endpoint, { method: "POST", headers, body: payload, signal: ctrl.signal });
      // The body read is inside the same deadline: a server that sends headers and then stalls
      // must not hold the conversation.
      const text = await res.text();
      if (res.status === 429) return { kind: "unavailable", reason: "rate_limited", status: 429, retryable: true };
      if (res.status >= 500)
        return { kind: "unavailable", reason: "server_error", status: res.status, retryable: true };
      if (!res.ok) return { kind: "unavailable", reason: "bad_status", status: res.status, retryable: false };
      return readCompletion(text);
    } catch (err) {
      const aborted = ctrl.signal.aborted || (err as { name?: string }).name === "AbortError";
      return { kind: "unavailable", reason: aborted ? "timeout" : "network", retryable: true };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    model: config.model,
    async complete(req) {
      const started = now();
      const payload = body(req);
      let attempts = 1;
      let out = await attempt(payload);
      if (out.kind === "unavailable" && out.retryable) {
        await new Promise((r) => setTimeout(r, retryDelayMs));
        attempts = 2;
        out = await attempt(payload);
      }
      const { retryable: _retryable, ...rest } = out;
      return { ...rest, attempts, latencyMs: now() - started } as ChatOutcome;
    },
    async probe() {
      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), Math.min(config.timeoutMs, 5_000));
      try {
        const modelsUrl = endpoint.replace(/\/chat\/completions$/, "/models");
        const res = await doFetch(modelsUrl, { headers, signal: ctrl.signal });
        await res.text();
        if (res.status === 401 || res.status === 403)
          return { ok: false, reason: `the model server refused the API key (${res.status})` };
        if (res.status >= 500) return { ok: false, reason: `the model server answered ${res.status}` };
        return { ok: true };
      } catch (err) {
        return {
          ok: false,
          reason: ctrl.signal.aborted
            ? "the model server did not answer in time"
            : `cannot reach the model server (${(err as Error).message})`,
        };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function readCompletion(text: string): Bare {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "unavailable", reason: "bad_body" };
  }
  const choice = (parsed as { choices?: Array<Record<string, unknown>> }).choices?.[0];
  const message = choice?.message as { content?: unknown; refusal?: unknown } | undefined;
  if (!choice || !message) return { kind: "unavailable", reason: "bad_body" };
  if (typeof message.refusal === "string" && message.refusal.length > 0)
    return { kind: "refused", refusal: message.refusal.slice(0, 500) };
  const content = typeof message.content === "string" ? message.content : "";
  const finishReason = typeof choice.finish_reason === "string" ? choice.finish_reason : null;
  // A cut-off answer is never half-applied: `length` means the JSON may be incomplete.
  if (finishReason === "length") return { kind: "truncated", content };
  const model = typeof (parsed as { model?: unknown }).model === "string" ? (parsed as { model: string }).model : null;
  return { kind: "answer", content, finishReason, model };
}
