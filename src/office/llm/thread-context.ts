/**
 * ThreadContext: what a conversation has been talking about, kept by the backend (never by the
 * model) so that "do it" without a reference resolves the same way every time.
 */
export interface ThreadContext {
  lastJobId?: string | undefined;
  /** Most recent first, no duplicates, at most RECENT_LIMIT. */
  recentJobIds: string[];
  pinnedJobId?: string;
  /** The target a person chose with "Change" under an ActionSummary; it outranks the room's focus. */
  focusJobId?: string;
}

export const RECENT_LIMIT = 5;

export function emptyThreadContext(): ThreadContext {
  return { recentJobIds: [] };
}

/** After a message whose tokens or executed action named these jobs (in order of mention). */
export function noteJobs(ctx: ThreadContext, jobIds: readonly string[]): ThreadContext {
  if (jobIds.length === 0) return ctx;
  let recent = [...ctx.recentJobIds];
  for (const id of jobIds) recent = [id, ...recent.filter((r) => r !== id)];
  return { ...ctx, lastJobId: jobIds[jobIds.length - 1], recentJobIds: recent.slice(0, RECENT_LIMIT) };
}

export function pinJob(ctx: ThreadContext, jobId: string | null): ThreadContext {
  const { pinnedJobId: _old, ...rest } = ctx;
  return jobId ? { ...rest, pinnedJobId: jobId } : rest;
}

export function changeTarget(ctx: ThreadContext, jobId: string | null): ThreadContext {
  const { focusJobId: _old, ...rest } = ctx;
  return jobId ? noteJobs({ ...rest, focusJobId: jobId }, [jobId]) : rest;
}

export type TargetSource = "token" | "focus" | "pinned" | "last";

export type TargetResolution =
  /** Tokens name the jobs: they are authoritative and nothing else is a candidate. */
  | { kind: "tokens"; jobIds: string[] }
  /** Exactly one default from the precedence rules; the model may still pick another candidate. */
  | { kind: "default"; jobId: string; source: Exclude<TargetSource, "token"> }
  | { kind: "none" };

export interface ResolveTargetInput {
  tokenJobIds: readonly string[];
  /** The conversation's current job as Office sees it (the header chip), if any. */
  roomFocusJobId?: string | undefined;
  ctx: ThreadContext;
  /** Ids the backend offers this turn; a source naming anything else is skipped, never trusted. */
  candidateIds: ReadonlySet<string>;
}

/**
 * Target precedence (contract §4 step 4): tokens → conversation focus → pinned → last. The
 * focus a person set with "Change" stands in for the room's own focus. The first source that
 * names a job still on offer wins; stale ids fall through to the next source instead of
 * being guessed at.
 */
export function resolveTarget(input: ResolveTargetInput): TargetResolution {
  if (input.tokenJobIds.length > 0) return { kind: "tokens", jobIds: [...new Set(input.tokenJobIds)] };
  const order: Array<[Exclude<TargetSource, "token">, string | undefined]> = [
    ["focus", input.ctx.focusJobId],
    ["focus", input.roomFocusJobId],
    ["pinned", input.ctx.pinnedJobId],
    ["last", input.ctx.lastJobId],
  ];
  for (const [source, id] of order) if (id && input.candidateIds.has(id)) return { kind: "default", jobId: id, source };
  return { kind: "none" };
}
