/**
 * Pulls the one JSON object out of a model's text. Models wrap JSON in code fences or lead
 * with a `<think>` block despite being told not to; those wrappers are removed only when the
 * result is unambiguous: a closed think block at the very start, one fence around everything,
 * and exactly one top-level object. Anything else is refused rather than repaired.
 */
export type ExtractResult = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

const MAX_CHARS = 200_000;

export function extractJsonObject(raw: string): ExtractResult {
  if (raw.length > MAX_CHARS) return { ok: false, reason: "answer too large" };
  let text = raw.trim();

  if (/^<think>/i.test(text)) {
    const end = text.search(/<\/think>/i);
    if (end < 0) return { ok: false, reason: "unclosed <think> block" };
    text = text.slice(end + "</think>".length).trim();
  }

  const fence = /^```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  if (fence) text = (fence[1] ?? "").trim();
  else if (text.startsWith("```")) return { ok: false, reason: "unclosed code fence" };

  const start = text.indexOf("{");
  if (start < 0) return { ok: false, reason: "no JSON object in the answer" };
  const end = findObjectEnd(text, start);
  if (end < 0) return { ok: false, reason: "truncated or unbalanced JSON" };

  // A second top-level object (or prose with braces) after the first one makes the answer
  // ambiguous: a prompt-injected model could append its own "real" answer.
  const after = text.slice(end + 1);
  if (after.includes("{")) return { ok: false, reason: "more than one JSON object in the answer" };
  // Reasoning left outside the object (a think block that was not the first thing) is not ours
  // to interpret.
  if (/<\/?think>/i.test(text.slice(0, start)) || /<\/?think>/i.test(after))
    return { ok: false, reason: "stray <think> tag" };

  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    return { ok: false, reason: `invalid JSON (${(err as Error).message.slice(0, 80)})` };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { ok: false, reason: "top level is not an object" };
  return { ok: true, value: value as Record<string, unknown> };
}

/** Index of the brace closing the object opened at `start`, string- and escape-aware; -1 if none. */
function findObjectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return ch === "}" ? i : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}
