import { mkdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { resolveStoredPath, storedPath } from "../../shared/data-paths.js";
import { AppError } from "../../shared/errors.js";
import { isStorageError, toStorageError } from "../../shared/storage-errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { scrubText } from "../pii.js";
import { memberConversation } from "./conversations.js";
import { inspectAudio } from "./audio.js";
import { inspectPicture } from "../people/picture.js";

/** Types a browser may render from our origin; everything else is served as octet-stream. */
const INLINE_SAFE = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "text/plain",
  "text/csv",
  "text/calendar",
]);

function safeMime(type: string): string {
  const t = type.split(";")[0]!.trim().toLowerCase();
  return INLINE_SAFE.has(t) ? t : "application/octet-stream";
}

function cleanName(name: string): string {
  // No path parts, no control characters, no quotes (it goes into Content-Disposition).
  const base = name.split(/[\\/]/).pop() ?? "file";
  return (base.replace(/[\u0000-\u001f\u007f"\\]/g, "_").trim() || "file").slice(0, 200);
}

/**
 * A file attached in chat: bytes under DATA_DIR/attachments/<tenant>/, a row naming its tenant
 * and conversation, and an `artifact` message — the row and the message commit together.
 */
export async function attachFile(
  core: Core,
  p: Principal,
  conversationId: string,
  file: File,
  idem?: IdemScope,
  caption?: string,
  durationMs?: number,
): Promise<StoredResponse> {
  memberConversation(core, p, conversationId);
  if (file.size === 0) throw new AppError("VALIDATION_ERROR", "The file is empty", { field: "file" });
  const artifactId = core.ids("art");
  const filename = cleanName(file.name);
  const bytes = Buffer.from(await file.arrayBuffer());
  const declared = safeMime(file.type || "application/octet-stream");
  const picture = inspectPicture(bytes, declared);
  const audio = picture ? null : inspectAudio(bytes, file.type, filename);
  const mime = picture?.mime ?? audio ?? declared;
  // A file name is typed by a person like a message ("call maria@acme.com.txt"): its emails and
  // phones go to the vault, and the ledger gets the redacted name. The download keeps the name
  // as uploaded (gateway_attachments is not the ledger and is served only to members).
  const { text: shown, refs: nameRefs } = scrubText(p.tenantId, filename, core.office.vault);
  // A caption is a message typed with the file: the same rule, and it becomes the message's text.
  const said = caption ? scrubText(p.tenantId, caption, core.office.vault) : null;
  const refs = [...nameRefs, ...(said?.refs ?? [])].slice(0, 50);
  const ev = core.event(
    p.tenantId,
    "message.sent",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    {
      message_id: core.ids("msg"),
      kind: "artifact",
      body_text: said?.text ?? shown,
      ...(refs.length ? { pii_refs: refs } : {}),
      artifact: {
        artifact_id: artifactId,
        kind: "file",
        title: shown,
        mime_type: mime,
        size_bytes: file.size,
        url: `/v1/artifacts/${artifactId}`,
        ...(picture?.size ?? {}),
        // How long a recording is, as the recorder measured it (a browser's WebM has no length in its header).
        ...(audio && durationMs ? { duration_ms: durationMs } : {}),
      },
    },
  );
  const dir = join(core.dataDir, "attachments", p.tenantId.replace(/[^A-Za-z0-9_-]/g, "_"));
  const path = join(dir, artifactId);
  // The bytes reach their name whole or not at all (a temp file, fsync, rename); if the commit
  // then fails (a full disk, say), the file goes too: nothing is left that no message names.
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic.sync(path, bytes, { mode: 0o600 });
  } catch (err) {
    throw toStorageError(err);
  }
  try {
    return await core.commit(p.tenantId, [ev], {
      idem,
      extra: () =>
        void core.db
          .prepare(
            "INSERT INTO gateway_attachments (artifact_id, tenant_id, conversation_id, filename, mime_type, size_bytes, path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(
            artifactId,
            p.tenantId,
            conversationId,
            filename,
            mime,
            file.size,
            storedPath(core.dataDir, path),
            core.clock.iso(),
          ),
      body: (r) => ({
        accepted: true,
        conversation_id: conversationId,
        artifact_id: artifactId,
        created_event_ids: r.accepted_event_ids,
        cursor: r.cursor,
      }),
    });
  } catch (err) {
    rmSync(path, { force: true });
    throw isStorageError(err) ? toStorageError(err) : err;
  }
}

export interface ServedFile {
  filename: string;
  mime: string;
  bytes: Buffer | string;
}

/** An attachment or an Office artifact, only for members of the conversation it belongs to. */
function findArtifact(
  core: Core,
  p: Principal,
  artifactId: string,
): ServedFile | { path: string; filename: string; mime: string } {
  const row = core.db
    .prepare<[string, string], { conversation_id: string; filename: string; mime_type: string; path: string }>(
      "SELECT conversation_id, filename, mime_type, path FROM gateway_attachments WHERE artifact_id = ? AND tenant_id = ?",
    )
    .get(artifactId, p.tenantId);
  if (row) {
    memberConversation(core, p, row.conversation_id);
    return { path: resolveStoredPath(core.dataDir, row.path), filename: row.filename, mime: row.mime_type };
  }
  const art = core.office.artifact(p.tenantId, artifactId);
  if (!art) throw notFound("Artifact");
  if (art.job_id) {
    const state = core.tenant(p.tenantId);
    const job = state.jobs.get(art.job_id);
    if (!job || !state.conversations.get(job.conversation_id)?.participants.has(p.entityId)) throw notFound("Artifact");
  }
  return { filename: cleanName(art.filename), mime: safeMime(art.mime_type), bytes: art.bytes };
}

/** GET /v1/artifacts/:id: the file's bytes, or where a link artifact points. */
export async function artifact(core: Core, p: Principal, artifactId: string): Promise<ServedFile> {
  const found = findArtifact(core, p, artifactId);
  return "path" in found ? { filename: found.filename, mime: found.mime, bytes: await readFile(found.path) } : found;
}
