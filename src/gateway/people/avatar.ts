import { mkdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { WORKSPACE_CONVERSATION_ID } from "../../../contracts/events.js";
import { LIMITS } from "../../../contracts/facts.js";
import { resolveStoredPath, storedPath } from "../../shared/data-paths.js";
import { AppError } from "../../shared/errors.js";
import { isStorageError, toStorageError } from "../../shared/storage-errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { inspectPicture } from "./picture.js";

/** A person's picture as the workspace fetches it: always this server's own route, never an address from input. */
const avatarUrl = (avatarId: string) => `/v1/avatars/${avatarId}`;

function profileView(core: Core, p: Principal, avatar: string, eventIds: string[]) {
  const me = core.me(p);
  return {
    tenant_id: p.tenantId,
    entity_id: me.entity_id,
    display_name: me.display_name,
    ...(avatar ? { avatar_url: avatar } : {}),
    ...(me.time_zone ? { time_zone: me.time_zone } : {}),
    ...(me.locale ? { locale: me.locale } : {}),
    created_event_ids: eventIds,
  };
}

function onlyPeople(core: Core, p: Principal): void {
  if (core.me(p).actor_type !== "human") throw new AppError("FORBIDDEN", "Only a person has a profile picture");
}

/**
 * My profile picture: a PNG, JPEG, GIF or WebP up to LIMITS.avatarBytes whose header the picture
 * checks read (the type its bytes have, never the one declared; a picture no browser should be
 * asked to decode is refused). The bytes are stored like an attachment of the workspace, and the
 * profile names them by this server's route in one `entity.profile_updated`.
 */
export async function setAvatar(core: Core, p: Principal, file: File, idem?: IdemScope): Promise<StoredResponse> {
  onlyPeople(core, p);
  if (file.size === 0) throw new AppError("VALIDATION_ERROR", "The file is empty", { field: "file" });
  if (file.size > LIMITS.avatarBytes)
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `A profile picture may be at most ${LIMITS.avatarBytes / 1024 / 1024} MiB`,
      {
        field: "file",
        max_bytes: LIMITS.avatarBytes,
        size_bytes: file.size,
      },
    );
  const declared = (file.type || "application/octet-stream").split(";")[0]!.trim().toLowerCase();
  const bytes = Buffer.from(await file.arrayBuffer());
  const picture = inspectPicture(bytes, declared);
  if (!picture)
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "A profile picture must be a PNG, JPEG, GIF or WebP image", {
      field: "file",
      declared,
    });
  const side = picture.size ? Math.max(picture.size.width, picture.size.height) : Number.POSITIVE_INFINITY;
  if (side > LIMITS.avatarSide)
    throw new AppError("VALIDATION_ERROR", `A profile picture may be at most ${LIMITS.avatarSide} pixels on a side`, {
      field: "file",
      max_side: LIMITS.avatarSide,
    });

  const avatarId = core.ids("av");
  const url = avatarUrl(avatarId);
  const ev = core.event(
    p.tenantId,
    "entity.profile_updated",
    WORKSPACE_CONVERSATION_ID,
    { entity_id: p.entityId, actor_type: "human" },
    { entity_id: p.entityId, avatar_url: url },
  );
  const dir = join(core.dataDir, "avatars", p.tenantId.replace(/[^A-Za-z0-9_-]/g, "_"));
  const path = join(dir, avatarId);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic.sync(path, bytes, { mode: 0o600 });
  } catch (err) {
    throw toStorageError(err);
  }
  try {
    return await core.commit(p.tenantId, [ev], {
      idem,
      status: 200,
      // The workspace conversation marks the row as a picture every member may see (GET /v1/avatars/:id).
      extra: () =>
        void core.db
          .prepare(
            "INSERT INTO gateway_attachments (artifact_id, tenant_id, conversation_id, filename, mime_type, size_bytes, path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(
            avatarId,
            p.tenantId,
            WORKSPACE_CONVERSATION_ID,
            `avatar-${avatarId}`,
            picture.mime,
            file.size,
            storedPath(core.dataDir, path),
            core.clock.iso(),
          ),
      body: (r) => profileView(core, p, url, r.accepted_event_ids),
    });
  } catch (err) {
    rmSync(path, { force: true });
    throw isStorageError(err) ? toStorageError(err) : err;
  }
}

/** Back to initials: `avatar_url: ""` (the picture's bytes stay, as history does). */
export async function removeAvatar(core: Core, p: Principal, idem?: IdemScope): Promise<StoredResponse> {
  onlyPeople(core, p);
  const ev = core.event(
    p.tenantId,
    "entity.profile_updated",
    WORKSPACE_CONVERSATION_ID,
    { entity_id: p.entityId, actor_type: "human" },
    { entity_id: p.entityId, avatar_url: "" },
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 200,
    body: (r) => profileView(core, p, "", r.accepted_event_ids),
  });
}

/** A profile picture of my workspace (any member may see the pictures of people they work with). */
function findAvatar(core: Core, p: Principal, avatarId: string): { path: string; mime: string } {
  core.me(p);
  const row = core.db
    .prepare<[string, string, string], { mime_type: string; path: string }>(
      "SELECT mime_type, path FROM gateway_attachments WHERE artifact_id = ? AND tenant_id = ? AND conversation_id = ?",
    )
    .get(avatarId, p.tenantId, WORKSPACE_CONVERSATION_ID);
  if (!row) throw notFound("Picture");
  return { path: resolveStoredPath(core.dataDir, row.path), mime: row.mime_type };
}

/** GET /v1/avatars/:id: the picture's bytes. */
export async function avatar(core: Core, p: Principal, avatarId: string): Promise<{ mime: string; bytes: Buffer }> {
  const found = findAvatar(core, p, avatarId);
  return { mime: found.mime, bytes: await readFile(found.path) };
}
