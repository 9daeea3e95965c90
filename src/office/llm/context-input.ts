/**
 * `context_input` (workroom contract) mapped to LogLine: the conversation is the room, jobs
 * are its tasks, pending card buttons its actions. Lists are cut to fixed sizes so prompts stay
 * small and predictable, and the cut is reported so the model asks instead of assuming that
 * what it cannot see does not exist.
 */
export const CONTEXT_LIMITS = { conversations: 8, jobs: 12, actions: 8 } as const;

export interface ContextJob {
  job_id: string;
  title: string;
  state: string;
  conversation_id: string;
}

export interface ContextInputSource {
  anchor: { job_id: string | null; conversation_id: string | null };
  conversations?: Array<{ conversation_id: string; title: string }>;
  jobs?: ContextJob[];
  actions?: Array<{ action_id: string; preview: string; source_type: string; job_id?: string }>;
}

export interface ContextInput {
  anchor: { job_id: string | null; conversation_id: string | null };
  conversations?: Array<{ id: string; title: string }>;
  jobs?: Array<{ id: string; title: string; state: string; conversation_id: string }>;
  actions?: Array<{ id: string; preview: string; source_type: string; job_id: string | null }>;
  truncated?: { conversations: number; jobs: number; actions: number };
}

/** Null when there is nothing to say: no anchor and every list empty. */
export function buildContextInput(src: ContextInputSource): ContextInput | null {
  const convs = src.conversations ?? [];
  const jobs = src.jobs ?? [];
  const actions = src.actions ?? [];
  const hasAnchor = src.anchor.job_id !== null || src.anchor.conversation_id !== null;
  if (!hasAnchor && convs.length === 0 && jobs.length === 0 && actions.length === 0) return null;

  const out: ContextInput = { anchor: src.anchor };
  if (convs.length)
    out.conversations = convs
      .slice(0, CONTEXT_LIMITS.conversations)
      .map((c) => ({ id: c.conversation_id, title: clip(c.title, 120) }));
  if (jobs.length)
    out.jobs = jobs
      .slice(0, CONTEXT_LIMITS.jobs)
      .map((j) => ({ id: j.job_id, title: clip(j.title, 120), state: j.state, conversation_id: j.conversation_id }));
  if (actions.length)
    out.actions = actions.slice(0, CONTEXT_LIMITS.actions).map((a) => ({
      id: a.action_id,
      preview: clip(a.preview, 160),
      source_type: a.source_type,
      job_id: a.job_id ?? null,
    }));
  const truncated = {
    conversations: Math.max(0, convs.length - CONTEXT_LIMITS.conversations),
    jobs: Math.max(0, jobs.length - CONTEXT_LIMITS.jobs),
    actions: Math.max(0, actions.length - CONTEXT_LIMITS.actions),
  };
  if (truncated.conversations || truncated.jobs || truncated.actions) out.truncated = truncated;
  return out;
}

/** The jobs a person is expected to act on, as pending card actions ("Approve “X”"). */
export function pendingActions(
  jobs: readonly ContextJob[],
): Array<{ action_id: string; preview: string; source_type: string; job_id: string }> {
  const verbs: Record<string, string> = {
    proposed: "Approve or reject",
    waiting_input: "Provide info for",
    completed: "Accept or dispute",
    failed: "Retry or cancel",
  };
  return jobs
    .filter((j) => verbs[j.state])
    .map((j) => ({
      action_id: `${j.job_id}:${j.state}`,
      preview: `${verbs[j.state]} “${clip(j.title, 100)}”`,
      source_type: "card_button",
      job_id: j.job_id,
    }));
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
