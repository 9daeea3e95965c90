/**
 * Parser for the structured tokens a person's client inserts into a message:
 *   [ref v:1 type:"job" id:"job_…" name:"Schedule call with Maria"]
 *   [op v:1 type:"approve" job:"job_…"]
 * Tokens carry identity, so the parser is deliberately unforgiving: anything that merely looks
 * like a token (lookalike brackets, hidden characters, another version, a repeated key, an open
 * quote, an oversized token) is an error the person sees, never a best-effort read. It runs only
 * on text a person typed; model output, tool results, job titles and file names never reach it,
 * and quoted lines (`> …`) are neutralised instead of parsed.
 */

const REF_TYPES = ["job"] as const;
export const OP_TYPES = [
  "approve",
  "reject",
  "request_changes",
  "provide_input",
  "ack",
  "dispute",
  "cancel",
  "follow_up",
  "retry",
  "switch_tool",
] as const;
export type OpType = (typeof OP_TYPES)[number];

/** Keys an op may carry besides v/type/job; anything else is refused. */
const OP_EXTRA_KEYS: Record<OpType, readonly string[]> = {
  approve: [],
  reject: ["reason"],
  request_changes: ["text"],
  provide_input: ["duration_minutes", "attendee_name", "time_window", "timezone", "meeting_link", "title", "day_hint"],
  ack: [],
  dispute: ["reason"],
  cancel: [],
  follow_up: ["text"],
  retry: [],
  switch_tool: ["to"],
};

export type RefToken = { kind: "ref"; type: "job"; id: string; name?: string; raw: string; placeholder: string };
export type OpToken = {
  kind: "op";
  type: OpType;
  job: string;
  args: Record<string, string>;
  raw: string;
  placeholder: string;
};
export type ParsedToken = RefToken | OpToken;

export type TokenErrorCode =
  | "TOKEN_LOOKALIKE_BRACKET"
  | "TOKEN_INVISIBLE_CHARACTERS"
  | "TOKEN_BAD_CASE"
  | "TOKEN_VERSION"
  | "TOKEN_DUPLICATE_KEY"
  | "TOKEN_UNTERMINATED_QUOTE"
  | "TOKEN_UNTERMINATED"
  | "TOKEN_TOO_LARGE"
  | "TOKEN_TOO_MANY"
  | "TOKEN_SYNTAX"
  | "TOKEN_UNKNOWN_TYPE"
  | "TOKEN_UNKNOWN_KEY"
  | "TOKEN_MISSING_KEY";

export interface TokenError {
  code: TokenErrorCode;
  message: string;
  /** Offset in the original text where the problem starts. */
  index: number;
}

export type TokenParseResult =
  | { ok: true; tokens: ParsedToken[]; llmText: string; quotedTokens: number }
  | { ok: false; error: TokenError };

const TOKEN_LIMITS = { maxTokenChars: 600, maxValueChars: 300, maxKeys: 12, maxTokens: 20 } as const;

// Brackets a client never inserts but that render almost like `[`: fullwidth, mathematical,
// CJK and ornamental variants.
const LOOKALIKE_OPEN = /[［⟦【〚〔﹝⁅❲⦋⦍⦏〘｢「〖⟨⦗⸢⸤]/u;
// Zero-width, joiner, bidi-control and other invisible code points that can hide or reorder text.
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible code point is matched on its own, joiners and variation selectors included
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/u;
const INVISIBLE_G = new RegExp(INVISIBLE.source, "gu");
const TOKEN_START = /\[(ref|op) /g;

export function parseTokens(text: string): TokenParseResult {
  const lines = text.split("\n");
  let offset = 0;
  const tokens: ParsedToken[] = [];
  const out: string[] = [];
  let quotedTokens = 0;
  for (const line of lines) {
    if (/^\s*>/.test(line)) {
      // Quoted text is someone else's words: its tokens carry no authority, so they are blanked
      // rather than parsed (and the model cannot mistake them for a person's choice).
      const neutral = line.replace(/\[(?:ref|op)\b[^\]\n]*\]?/gi, () => {
        quotedTokens++;
        return "[quoted token]";
      });
      out.push(neutral);
    } else {
      const res = parseLine(line, offset, tokens);
      if (!res.ok) return res;
      out.push(res.text);
    }
    offset += line.length + 1;
  }
  return { ok: true, tokens, llmText: out.join("\n"), quotedTokens };
}

/** True when the text holds anything token-shaped, used to decide whether strict checks apply. */
function looksTokenish(s: string): boolean {
  return /\[\s*(ref|op)\b/i.test(s) || /\b(ref|op)\s+v\s*:/i.test(s);
}

function parseLine(
  line: string,
  base: number,
  tokens: ParsedToken[],
): { ok: true; text: string } | { ok: false; error: TokenError } {
  const fail = (code: TokenErrorCode, message: string, at: number) => ({
    ok: false as const,
    error: { code, message, index: base + at },
  });

  const stripped = line.replace(INVISIBLE_G, "");
  const nfkc = stripped.normalize("NFKC");
  if (INVISIBLE.test(line) && looksTokenish(stripped.normalize("NFKC"))) {
    return fail(
      "TOKEN_INVISIBLE_CHARACTERS",
      "This message mixes a job reference with hidden characters; pick the job again from the list.",
      line.search(INVISIBLE),
    );
  }
  const look = LOOKALIKE_OPEN.exec(line);
  if (look && /^\s*(ref|op)\b/i.test(line.slice(look.index + look[0].length).normalize("NFKC"))) {
    return fail(
      "TOKEN_LOOKALIKE_BRACKET",
      "A job reference uses a bracket that only looks like '['; pick the job again from the list.",
      look.index,
    );
  }
  // Fullwidth letters or brackets that NFKC folds into a token start are lookalikes too.
  if (countStarts(nfkc) > countStarts(line)) {
    return fail(
      "TOKEN_LOOKALIKE_BRACKET",
      "A job reference is written with lookalike characters; pick the job again from the list.",
      0,
    );
  }
  for (const m of line.matchAll(/\[(ref|op) /gi)) {
    const name = m[1]!;
    if (name !== name.toLowerCase())
      return fail("TOKEN_BAD_CASE", `Token names are lowercase: write '[${name.toLowerCase()} …]'.`, m.index);
  }

  let result = "";
  let cursor = 0;
  TOKEN_START.lastIndex = 0;
  for (let m = TOKEN_START.exec(line); m; m = TOKEN_START.exec(line)) {
    const parsed = parseOne(line, m.index, m[1] as "ref" | "op");
    if (!parsed.ok) return fail(parsed.code, parsed.message, parsed.at);
    if (tokens.length >= TOKEN_LIMITS.maxTokens)
      return fail("TOKEN_TOO_MANY", `A message may hold at most ${TOKEN_LIMITS.maxTokens} tokens.`, m.index);
    const n = tokens.filter((t) => t.kind === parsed.token.kind).length + 1;
    const placeholder = `[${parsed.token.kind}#${n}]`;
    tokens.push({ ...parsed.token, placeholder } as ParsedToken);
    result += escapePlaceholders(line.slice(cursor, m.index)) + placeholder;
    cursor = parsed.end;
    TOKEN_START.lastIndex = parsed.end;
  }
  result += escapePlaceholders(line.slice(cursor));
  return { ok: true, text: result };
}

function countStarts(s: string): number {
  return (s.match(/\[(ref|op) /g) ?? []).length;
}

/** A person typing our placeholder shape would blur which reference is which. */
function escapePlaceholders(s: string): string {
  return s.replace(/\[(ref|op)#/g, "($1#");
}

type OneResult =
  | { ok: true; token: Omit<RefToken, "placeholder"> | Omit<OpToken, "placeholder">; end: number }
  | { ok: false; code: TokenErrorCode; message: string; at: number };

function parseOne(line: string, start: number, kind: "ref" | "op"): OneResult {
  const err = (code: TokenErrorCode, message: string, at = start): OneResult => ({ ok: false, code, message, at });
  const fields = new Map<string, string>();
  let i = start + kind.length + 2;
  for (;;) {
    while (line[i] === " ") i++;
    if (i - start > TOKEN_LIMITS.maxTokenChars)
      return err("TOKEN_TOO_LARGE", `A token may be at most ${TOKEN_LIMITS.maxTokenChars} characters.`);
    if (i >= line.length) return err("TOKEN_UNTERMINATED", "A token is missing its closing ']'.");
    if (line[i] === "]") break;
    const key = /^[a-z_]{1,32}/.exec(line.slice(i))?.[0];
    if (!key) return err("TOKEN_SYNTAX", `Unexpected character '${line[i]}' in a token.`, i);
    i += key.length;
    // A bare word where a field should be means the token ran into ordinary text: it was never closed.
    if (line[i] !== ":") return err("TOKEN_UNTERMINATED", "A token is missing its closing ']'.", i);
    i++;
    let value = "";
    if (line[i] === '"') {
      i++;
      let closed = false;
      while (i < line.length) {
        const ch = line[i]!;
        if (ch === "\\") {
          const next = line[i + 1];
          if (next !== '"' && next !== "\\")
            return err("TOKEN_SYNTAX", 'Only \\" and \\\\ escapes are allowed in a token.', i);
          value += next;
          i += 2;
        } else if (ch === '"') {
          closed = true;
          i++;
          break;
        } else if (ch.charCodeAt(0) < 0x20 || ch === "\u007f") {
          return err("TOKEN_SYNTAX", "Control characters are not allowed in a token.", i);
        } else {
          value += ch;
          i++;
        }
        if (value.length > TOKEN_LIMITS.maxValueChars)
          return err("TOKEN_TOO_LARGE", `A token value may be at most ${TOKEN_LIMITS.maxValueChars} characters.`);
      }
      if (!closed) return err("TOKEN_UNTERMINATED_QUOTE", `The value of '${key}' opens a quote that never closes.`);
    } else {
      value = /^[A-Za-z0-9_.-]{1,128}/.exec(line.slice(i))?.[0] ?? "";
      if (!value) return err("TOKEN_SYNTAX", `'${key}' has no value.`, i);
      i += value.length;
    }
    if (line[i] !== " " && line[i] !== "]") {
      if (i >= line.length) return err("TOKEN_UNTERMINATED", "A token is missing its closing ']'.");
      return err("TOKEN_SYNTAX", "Token fields are separated by spaces.", i);
    }
    if (fields.has(key)) return err("TOKEN_DUPLICATE_KEY", `'${key}' appears twice in one token.`);
    if (fields.size >= TOKEN_LIMITS.maxKeys)
      return err("TOKEN_TOO_LARGE", `A token may have at most ${TOKEN_LIMITS.maxKeys} fields.`);
    fields.set(key, value);
  }
  const end = i + 1;
  if (end - start > TOKEN_LIMITS.maxTokenChars)
    return err("TOKEN_TOO_LARGE", `A token may be at most ${TOKEN_LIMITS.maxTokenChars} characters.`);
  const raw = line.slice(start, end);

  const v = fields.get("v");
  if (v === undefined) return err("TOKEN_VERSION", "A token must say its version (v:1).");
  if (v !== "1") return err("TOKEN_VERSION", `Token version v:${v} is not supported; only v:1 is.`);
  const type = fields.get("type");
  if (type === undefined) return err("TOKEN_MISSING_KEY", "A token must say its type.");

  if (kind === "ref") {
    if (!(REF_TYPES as readonly string[]).includes(type))
      return err("TOKEN_UNKNOWN_TYPE", `Unknown reference type '${type}'.`);
    const id = fields.get("id");
    if (!id) return err("TOKEN_MISSING_KEY", "A reference must carry an id.");
    for (const k of fields.keys())
      if (!["v", "type", "id", "name"].includes(k))
        return err("TOKEN_UNKNOWN_KEY", `Unknown field '${k}' in a reference.`);
    const name = fields.get("name");
    return { ok: true, end, token: { kind: "ref", type: "job", id, ...(name !== undefined ? { name } : {}), raw } };
  }
  if (!(OP_TYPES as readonly string[]).includes(type)) return err("TOKEN_UNKNOWN_TYPE", `Unknown operation '${type}'.`);
  const opType = type as OpType;
  const job = fields.get("job");
  if (!job) return err("TOKEN_MISSING_KEY", "An operation must name its job.");
  const args: Record<string, string> = {};
  for (const [k, val] of fields) {
    if (k === "v" || k === "type" || k === "job") continue;
    if (!OP_EXTRA_KEYS[opType].includes(k))
      return err("TOKEN_UNKNOWN_KEY", `Unknown field '${k}' for operation '${opType}'.`);
    args[k] = val;
  }
  return { ok: true, end, token: { kind: "op", type: opType, job, args, raw } };
}

/** Serialises a reference the way a client inserts it (used for clarifying-question choices). */
export function formatRefToken(jobId: string, name: string): string {
  return `[ref v:1 type:"job" id:${quote(jobId)} name:${quote(name.slice(0, 120))}]`;
}

export function formatOpToken(type: OpType, jobId: string, args: Record<string, string> = {}): string {
  const extra = Object.entries(args)
    .map(([k, v]) => ` ${k}:${quote(v)}`)
    .join("");
  return `[op v:1 type:"${type}" job:${quote(jobId)}${extra}]`;
}

function quote(s: string): string {
  return `"${s
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')}"`;
}
