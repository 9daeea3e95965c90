import type { TArtifactRef } from "../../../contracts/cards.js";
import type { ArtifactStore } from "../artifact-store.js";
import type { EntityProfile } from "../context-builder.js";
import type { EmitContext } from "../emitter.js";
import { letterHash } from "../letter-hash.js";
import type { JobView } from "../job-machine.js";
import type { McpContent } from "../mcp/hub.js";
import type { ToolRouter } from "../tools/tool-router.js";
import type { Vault } from "../vault/vault.js";
import type { JobCommand, McpOutcome, PlannedCall } from "./model.js";

/**
 * The effects of an MCP call, outside the job's lock so that Cancel can reach it: read the exact
 * arguments from the vault, call the tool with a deadline, progress and an abort signal, make
 * the answer safe (addresses and numbers to the vault, text capped for the ledger, the rest
 * kept as artifact files, never as HTML) and hand the outcome back as a command.
 */

/** What the ledger keeps of an answer's text; the whole (scrubbed) text goes to an artifact. */
const LEDGER_TEXT = 2_000;
const MAX_FILE = 5 * 1024 * 1024;
const MAX_FILES = 5;
/** Progress updates written per call at most, and the least time between two. */
const MAX_PROGRESS = 20;
const PROGRESS_GAP_MS = 1_000;

export function createMcpRunner(deps: {
  /** The one tool router: it runs MCP tools through their server. */
  router: ToolRouter;
  vault: Vault;
  artifacts: ArtifactStore;
  now: () => number;
  scrub: (tenantId: string, text: string) => string;
  /** Decide a command for the job (re-read under its lock) and carry it out. */
  apply: (tenantId: string, jobId: string, agent: EntityProfile, cmd: JobCommand, ec: EmitContext) => Promise<unknown>;
  onError: (err: unknown, where: string) => void;
}) {
  const inFlight = new Map<string, AbortController>();
  const running = new Set<Promise<unknown>>();
  const key = (t: string, j: string) => `${t}|${j}`;

  function store(job: JobView, call: PlannedCall, content: McpContent[]): McpOutcome & { ok: true } {
    const types = [...new Set(content.map((c) => c.type))];
    const texts = content.flatMap((c) =>
      c.type === "text" ? [c.text] : c.type === "resource" && typeof c.text === "string" ? [c.text] : [],
    );
    const text = deps.scrub(job.tenant_id, texts.join("\n"));
    const artifacts: TArtifactRef[] = [];
    const save = (name: string, mime: string, bytes: Buffer, title: string) => {
      if (artifacts.length >= MAX_FILES || bytes.length > MAX_FILE) return;
      const artifact_id = `art_${letterHash(`mcp|${job.tenant_id}|${call.call_id}|${artifacts.length}`, 20)}`;
      const saved = deps.artifacts.save({
        artifact_id,
        tenant_id: job.tenant_id,
        job_id: job.job_id,
        filename: name,
        mime_type: mime,
        bytes,
      });
      artifacts.push({
        artifact_id,
        kind: "file",
        title,
        url: `/v1/artifacts/${artifact_id}`,
        mime_type: mime,
        size_bytes: saved.size_bytes,
      });
    };
    // Plain text only: an answer is never shown as HTML, whatever it contains.
    if (text.length > LEDGER_TEXT)
      save("answer.txt", "text/plain; charset=utf-8", Buffer.from(text, "utf8"), `Answer of ${call.tool_name} (text)`);
    content.forEach((c, i) => {
      if ((c.type === "image" || c.type === "audio") && /^[\w.+-]+\/[\w.+-]+$/.test(c.mimeType)) {
        const ext =
          c.mimeType
            .split("/")[1]!
            .replace(/[^a-z0-9]/gi, "")
            .slice(0, 8) || "bin";
        save(
          `${c.type}-${i + 1}.${ext}`,
          c.mimeType,
          Buffer.from(c.data, "base64"),
          `${c.type === "image" ? "Image" : "Audio"} from ${call.tool_name}`,
        );
      } else if (c.type === "resource" && typeof c.blob === "string") {
        save(
          `resource-${i + 1}.bin`,
          "application/octet-stream",
          Buffer.from(c.blob, "base64"),
          `File from ${call.tool_name}`,
        );
      }
    });
    return {
      ok: true,
      text: text.slice(0, LEDGER_TEXT),
      content_types: types,
      artifacts,
      ...(text.length > LEDGER_TEXT ? { truncated: true } : {}),
      latency_ms: 0,
    };
  }

  async function run(
    job: JobView,
    agent: EntityProfile,
    call: PlannedCall,
    ec: EmitContext,
    breaker: (ok: boolean) => boolean,
  ): Promise<void> {
    const t = job.tenant_id;
    const k = key(t, job.job_id);
    const ac = new AbortController();
    inFlight.set(k, ac);
    const ref = (call.input as { args_ref?: string }).args_ref;
    const raw = ref ? deps.vault.get(t, ref) : null;
    let outcome: McpOutcome;
    try {
      if (raw === null) {
        outcome = {
          ok: false,
          error: {
            error_code: "INVALID_INPUT",
            message_safe: "The call’s arguments are no longer in the vault (erased).",
            retryable: false,
          },
          latency_ms: 0,
        };
      } else {
        let sent = 0;
        let last = 0;
        const out = await deps.router.execute(call.tool_name, JSON.parse(raw) as Record<string, unknown>, {
          tenant_id: t,
          job_id: job.job_id,
          idempotency_key: call.idempotency_key,
          attempt: call.attempt,
          now: deps.now(),
          signal: ac.signal,
          onProgress: (p) => {
            const now = deps.now();
            if (sent >= MAX_PROGRESS || now - last < PROGRESS_GAP_MS) return;
            sent++;
            last = now;
            const cmd: JobCommand = {
              type: "tool_progress",
              call_id: call.call_id,
              tool_name: call.tool_name,
              progress: p.progress,
              ...(p.total !== undefined ? { total: p.total } : {}),
              ...(p.message ? { message: deps.scrub(t, p.message) } : {}),
            };
            track(deps.apply(t, job.job_id, agent, cmd, ec).catch((e) => deps.onError(e, "mcp.progress")));
          },
        });
        const content = out.ok ? ((out.output as { content?: McpContent[] }).content ?? []) : [];
        outcome = out.ok
          ? { ...store(job, call, content), latency_ms: out.latency_ms }
          : {
              ok: false,
              error: {
                error_code: out.error.error_code,
                message_safe: deps.scrub(t, out.error.message_safe),
                retryable: out.error.retryable,
              },
              latency_ms: out.latency_ms,
            };
      }
    } finally {
      if (inFlight.get(k) === ac) inFlight.delete(k);
    }
    const breaker_open = breaker(outcome.ok);
    await deps.apply(
      t,
      job.job_id,
      agent,
      { type: "record_mcp_outcome", call, outcome, breaker_open },
      { ...ec, causation_id: `evt_${call.call_id}` },
    );
  }

  function track(p: Promise<unknown>) {
    const tp = p.finally(() => running.delete(tp));
    running.add(tp);
  }

  return {
    /** Starts the call in the background; its outcome is recorded under the job's lock when it comes. */
    launch(job: JobView, agent: EntityProfile, call: PlannedCall, ec: EmitContext, breaker: (ok: boolean) => boolean) {
      track(run(job, agent, call, ec, breaker).catch((e) => deps.onError(e, "mcp.call")));
    },
    /** Cancel: the call in flight for this job is aborted and the server told so. */
    abort(tenantId: string, jobId: string) {
      inFlight.get(key(tenantId, jobId))?.abort();
    },
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
