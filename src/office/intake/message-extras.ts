import { ZMessageSentPayload } from "../../../contracts/events.js";
import { formatRefToken } from "../llm/tokens.js";
import type { LlmTurnExtras } from "../llm/types.js";

/**
 * The structured fields an agent's message carries (contracts/llm.ts): ActionSummary, surfaces,
 * the safe render doc, citations and clarifying choices. Office has already validated them; here
 * every string goes through the same PII scrub as body_text (a model may echo an address into a
 * surface), and the result is checked against the ledger's contract so one bad block drops
 * alone instead of failing the whole reply.
 */
export function messageExtras(llm: LlmTurnExtras | undefined, scrub: (s: string) => string): Record<string, unknown> {
  if (!llm) return {};
  const out: Record<string, unknown> = {};
  const s = llm.action_summary;
  if (s) {
    out.action_summary = {
      job_id: s.job_id,
      job_title: s.job_title.slice(0, 200),
      assumed: s.assumed,
      action: s.action,
      source: s.source,
      change_token: formatRefToken(s.job_id, s.job_title.slice(0, 120)),
      ...(s.change_candidates.length
        ? { change_candidates: s.change_candidates.map((c) => ({ job_id: c.job_id, title: c.title.slice(0, 200) })) }
        : {}),
    };
  }
  if (llm.surfaces?.length) out.surfaces = llm.surfaces;
  if (llm.render) out.render = llm.render;
  if (llm.citations?.length) out.citations = llm.citations;
  const choices = [...(llm.choice_refs ?? []), ...(llm.confirm_op ? [llm.confirm_op] : [])].slice(0, 5);
  if (choices.length) out.choices = choices.map((c) => ({ label: c.label.slice(0, 200), token: c.token }));

  const kept: Record<string, unknown> = {};
  const fits = (key: string, value: unknown) =>
    ZMessageSentPayload.safeParse({ message_id: "msg_probe", kind: "text", body_text: "probe", [key]: value }).success;
  for (const [key, value] of Object.entries(out)) {
    const clean = scrubStrings(value, scrub);
    // Lists are checked item by item, so one bad surface or choice drops alone.
    if (Array.isArray(clean)) {
      const items = clean.filter((item) => fits(key, [item]));
      if (items.length) kept[key] = items;
    } else if (fits(key, clean)) kept[key] = clean;
  }
  return kept;
}

/**
 * Ids were checked against what the backend offered, so they are kept exactly as they are. Tokens
 * carry identity exactly, so a token whose other parts (a name, an argument) hold anything
 * sensitive becomes empty, which the contract refuses, and its block is dropped.
 */
const ID_KEYS = new Set(["job_id", "jobId", "targetJobId", "doc_id", "surface_id"]);
const TOKEN_KEYS = new Set([
  "token",
  "change_token",
  "opToken",
  "acceptOp",
  "approveOp",
  "declineOp",
  "suggestAlternativesOp",
]);
const TOKEN_IDS = /\b(id|job):"(?:[^"\\]|\\.)*"/g;

function scrubStrings(v: unknown, scrub: (s: string) => string, key = ""): unknown {
  if (typeof v === "string") {
    if (ID_KEYS.has(key)) return v;
    if (TOKEN_KEYS.has(key)) {
      const masked = v.replace(TOKEN_IDS, '$1:""');
      return scrub(masked) === masked ? v : "";
    }
    return scrub(v);
  }
  if (Array.isArray(v)) return v.map((x) => scrubStrings(x, scrub, key));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubStrings(x, scrub, k)]));
  return v;
}
