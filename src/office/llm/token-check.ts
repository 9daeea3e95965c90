import type { TCardActionType } from "../../../contracts/cards.js";
import type { PlanJobRef, SlotValues } from "../planner/planner.js";
import type { IsActionAllowed } from "./target-labels.js";
import { parseTokens, type OpToken, type ParsedToken, type TokenError } from "./tokens.js";

/**
 * Validation of a person's tokens against what the backend knows (contract §4 step 3): every id
 * must be a job this tenant offers in this conversation, every op must be one the job's state
 * accepts. A failure is a deterministic error before any model call or write. A job of another
 * tenant reads exactly like a job that does not exist.
 */
export type TokenCheck =
  | { ok: true; tokens: ParsedToken[]; llmText: string; quotedTokens: number }
  | {
      ok: false;
      error:
        | TokenError
        | {
            code: "TOKEN_UNKNOWN_JOB" | "TOKEN_NOT_ALLOWED" | "TOKEN_BAD_VALUE" | "TOKEN_TOO_MANY";
            message: string;
            index: number;
          };
    };

const MEETING_LINKS = new Set(["jitsi", "google_meet", "zoom", "teams", "phone", "in_person"]);

export function checkMessageTokens(
  text: string,
  jobs: ReadonlyMap<string, PlanJobRef>,
  isActionAllowed: IsActionAllowed,
): TokenCheck {
  const parsed = parseTokens(text);
  if (!parsed.ok) return parsed;
  const ops = parsed.tokens.filter((t): t is OpToken => t.kind === "op");
  if (ops.length > 1)
    return { ok: false, error: { code: "TOKEN_TOO_MANY", message: "Send one quick action at a time.", index: 0 } };
  for (const t of parsed.tokens) {
    const id = t.kind === "ref" ? t.id : t.job;
    const job = jobs.get(id);
    const index = Math.max(0, text.indexOf(t.raw));
    if (!job)
      return {
        ok: false,
        error: {
          code: "TOKEN_UNKNOWN_JOB",
          message: "That job reference doesn’t match a job here. Pick the job again with #.",
          index,
        },
      };
    if (t.kind === "op") {
      if (!isActionAllowed(job.state, `job.${t.type}` as TCardActionType))
        return {
          ok: false,
          error: {
            code: "TOKEN_NOT_ALLOWED",
            message: `“${job.title}” is ${job.state.replace("_", " ")}; that action isn’t available now.`,
            index,
          },
        };
      const bad = badArgs(t);
      if (bad) return { ok: false, error: { code: "TOKEN_BAD_VALUE", message: bad, index } };
    }
  }
  return parsed;
}

function badArgs(op: OpToken): string | null {
  for (const [k, v] of Object.entries(op.args)) {
    if (k === "duration_minutes" && !(/^\d{1,3}$/.test(v) && Number(v) >= 5 && Number(v) <= 600))
      return "duration_minutes must be a whole number of minutes (5–600).";
    if (k === "meeting_link" && !MEETING_LINKS.has(v))
      return "meeting_link must be jitsi, google_meet, zoom, teams, phone or in_person.";
  }
  return null;
}

export function opSlots(op: OpToken): SlotValues {
  const slots: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(op.args)) slots[k] = k === "duration_minutes" ? Number(v) : v;
  return slots as SlotValues;
}
