import type { ContextInput } from "./context-input.js";
import { digest, preview, scrubDeep, scrubSecrets } from "./redact.js";

/**
 * The versioned packets exchanged with the model (protocol doc "laika.llmcp", renamed to ours).
 * The request packet is the user content of the chat call; the response packet records what the
 * model said and what validation kept. Both are stored after `redactPacket`.
 */
export const PROTOCOL = { name: "logline.llmcp", version: 1 } as const;

export interface RequestDocument {
  doc_id: string;
  kind: string;
  /** Everything a person, a tool or the web wrote is data, never instructions. */
  trust: "untrusted";
  content: { text: string };
}

export interface RequestPacket {
  protocol: typeof PROTOCOL;
  id: string;
  type: "request";
  created_at: string;
  conversation: { id: string; turn: number };
  sender: { role: "agent" };
  trace: { trace_id: string };
  input: {
    user_message: { id: string; text: string; sender_display_name: string };
    task: { name: "office.plan_turn"; args: { default_timezone: string; now: string } };
    references: Array<{ placeholder: string; type: "job"; job_id: string; title: string }>;
    candidate_job_ids: string[];
    default_job_id: string | null;
    default_reason: string | null;
  };
  agent: {
    entity_id: string;
    display_name: string;
    role: string | null;
    allowed_tools: string[];
    tools: Array<{
      name: string;
      description: string;
      input_schema: Record<string, unknown>;
      mode: "auto" | "approve";
    }>;
  };
  context: { context_input: ContextInput | null; documents: RequestDocument[] };
  output: { format: "json" };
}

export interface ResponsePacket {
  protocol: typeof PROTOCOL;
  id: string;
  type: "response";
  created_at: string;
  conversation: { id: string; turn: number };
  sender: { role: "assistant" };
  in_reply_to: { request_id: string };
  model: string | null;
  transport: { outcome: string; attempts: number; latency_ms: number; finish_reason: string | null };
  /** Raw model text: digest and preview by default. */
  raw: { digest: string; preview: string; length: number; text?: string };
  /** The parsed answer as the model gave it (before validation), when it parsed at all. */
  answer: Record<string, unknown> | null;
  validation: {
    outcome: string;
    decision_type: string;
    job_id: string | null;
    dropped: Array<{ what: string; index?: number; reason: string }>;
  };
}

const DOC_TEXT_LIMIT = 4000;

export function makeDocuments(docs: ReadonlyArray<{ doc_id: string; kind: string; text: string }>): RequestDocument[] {
  return docs.slice(0, 10).map((d) => ({
    doc_id: d.doc_id.slice(0, 128),
    kind: d.kind.slice(0, 64),
    trust: "untrusted",
    content: { text: d.text.slice(0, DOC_TEXT_LIMIT) },
  }));
}

/** A request as stored: by default each document's text is replaced by its digest and a preview. */
export type StoredRequestPacket = Omit<RequestPacket, "context"> & {
  context: Omit<RequestPacket["context"], "documents"> & {
    documents: Array<
      Omit<RequestDocument, "content"> & {
        content: RequestDocument["content"] | { digest: string; preview: string; length: number };
      }
    >;
  };
};

/**
 * The stored form. Default: untrusted documents become digest + preview, strings are scrubbed
 * of secrets and contact details, the raw model text is digest + preview. Full: as sent,
 * except that secrets are still scrubbed (an API key has no debugging value).
 */
export function redactPacket(packet: RequestPacket, full: boolean): StoredRequestPacket;
export function redactPacket(packet: ResponsePacket, full: boolean): ResponsePacket;
export function redactPacket(
  packet: RequestPacket | ResponsePacket,
  full: boolean,
): StoredRequestPacket | ResponsePacket {
  if (full) return scrubDeep(packet);
  if (packet.type === "request") {
    const req = packet;
    return scrubDeep({
      ...req,
      context: {
        ...req.context,
        documents: req.context.documents.map((d) => ({
          doc_id: d.doc_id,
          kind: d.kind,
          trust: d.trust,
          content: { digest: digest(d.content.text), preview: preview(d.content.text), length: d.content.text.length },
        })),
      },
    });
  }
  const res = packet;
  const { text: _text, ...raw } = res.raw;
  return scrubDeep({ ...res, raw });
}

export function rawSummary(text: string, keepFull: boolean): ResponsePacket["raw"] {
  return {
    digest: digest(text),
    preview: preview(text, 200),
    length: text.length,
    ...(keepFull ? { text: scrubSecrets(text) } : {}),
  };
}
