import type { z } from "zod";
import { WORKSPACE_CONVERSATION_ID } from "../../../contracts/events.js";
import type { ZProfileUpdateRequest } from "../../../contracts/people.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { EntityRow } from "../projections/state.js";

type ProfileUpdate = z.infer<typeof ZProfileUpdateRequest>;

/** An IANA zone this server knows ("America/New_York", "UTC"), in its canonical spelling; undefined otherwise. */
function canonicalTimeZone(raw: string): string | undefined {
  // Offsets ("+01:00") and abbreviations ("EST") are not places: their rules do not follow a person's clock.
  if (raw !== "UTC" && !/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(raw)) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function canonicalLocale(raw: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(raw)[0];
  } catch {
    return undefined;
  }
}

/**
 * A profile change as an `entity.profile_updated` written by the person themself. People edit
 * their own name, zone and language; an admin may rename anyone, and nothing else of theirs
 * (the policy pack's profile_authority says the same, so the ledger refuses it either way).
 */
export async function updateProfile(
  core: Core,
  p: Principal,
  who: string,
  body: ProfileUpdate,
  idem?: IdemScope,
): Promise<StoredResponse> {
  // PUT /v1/me/profile names no one: it is the caller.
  const entityId = who === "me" ? p.entityId : who;
  const me = core.me(p);
  const target = core.tenant(p.tenantId).entities.get(entityId);
  if (!target) throw notFound("Person");
  if (me.actor_type !== "human") throw new AppError("FORBIDDEN", "Only a person edits a profile");
  if (entityId !== me.entity_id) {
    if (!me.roles.includes("admin")) throw new AppError("FORBIDDEN", "Only an admin may rename someone else");
    const others = Object.keys(body).filter((k) => k !== "display_name");
    if (others.length)
      throw new AppError("FORBIDDEN", "An admin may change someone else's display name only", { fields: others });
  }
  const payload: {
    entity_id: string;
    display_name?: string;
    time_zone?: string;
    locale?: string;
    email_digest?: boolean;
    read_receipts?: boolean;
    status_text?: string;
    status_until?: string;
    dnd_until?: string;
  } = { entity_id: entityId };
  if (body.read_receipts !== undefined) payload.read_receipts = body.read_receipts;
  const future = (iso: string, field: string) => {
    if (Date.parse(iso) <= core.clock.now())
      throw new AppError("VALIDATION_ERROR", "That time has already passed: choose one in the future", { field });
    return new Date(iso).toISOString();
  };
  if (body.status !== undefined) {
    payload.status_text = body.status?.text ?? "";
    payload.status_until = body.status?.until ? future(body.status.until, "status.until") : "";
  }
  if (body.dnd_until !== undefined) payload.dnd_until = body.dnd_until ? future(body.dnd_until, "dnd_until") : "";
  if (body.email_digest !== undefined) {
    // Turning it on needs somewhere to send it; turning it off never does.
    const why = body.email_digest ? digestUnavailable(core, target) : undefined;
    if (why === "mail_not_configured")
      throw new AppError("SERVICE_UNAVAILABLE", "The e-mail digest is off here: this server has no mail configured.", {
        field: "email_digest",
        reason: why,
      });
    if (why === "no_email")
      throw new AppError("VALIDATION_ERROR", "Add your email first: the digest is sent there.", {
        field: "email_digest",
        reason: why,
      });
    payload.email_digest = body.email_digest;
  }
  if (body.display_name !== undefined) payload.display_name = body.display_name;
  if (body.time_zone !== undefined) {
    const tz = canonicalTimeZone(body.time_zone);
    if (!tz)
      throw new AppError(
        "VALIDATION_ERROR",
        "Unknown time zone: use an IANA name such as Europe/Lisbon or America/New_York",
        { field: "time_zone" },
      );
    payload.time_zone = tz;
  }
  if (body.locale !== undefined) {
    const locale = canonicalLocale(body.locale);
    if (!locale)
      throw new AppError("VALIDATION_ERROR", "Unknown language tag: use one such as en-US or pt-PT", {
        field: "locale",
      });
    payload.locale = locale;
  }
  const ev = core.event(
    p.tenantId,
    "entity.profile_updated",
    WORKSPACE_CONVERSATION_ID,
    { entity_id: me.entity_id, actor_type: "human" },
    payload,
  );
  // The answer is the profile as this event leaves it (the projections fold it after the commit).
  const view = {
    tenant_id: p.tenantId,
    display_name: target.display_name,
    ...(target.avatar_url ? { avatar_url: target.avatar_url } : {}),
    ...(target.time_zone ? { time_zone: target.time_zone } : {}),
    ...(target.locale ? { locale: target.locale } : {}),
    ...(target.email_digest !== undefined ? { email_digest: target.email_digest } : {}),
    read_receipts: target.read_receipts !== false,
    ...(target.status_text ? { status_text: target.status_text } : {}),
    ...(target.status_until ? { status_until: target.status_until } : {}),
    ...(target.dnd_until ? { dnd_until: target.dnd_until } : {}),
    ...payload,
  };
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 200,
    body: (res) => ({ ...view, created_event_ids: res.accepted_event_ids }),
  });
}

/** Why this person cannot have the e-mail digest, if they cannot. */
function digestUnavailable(core: Core, person: EntityRow): "mail_not_configured" | "no_email" | undefined {
  if (!core.digest.available) return "mail_not_configured";
  if (!person.email?.vault_ref) return "no_email";
  return undefined;
}

/** GET /v1/me/digest: whether I asked for the digest, and whether it can be had here. */
export function digestSettings(core: Core, p: Principal) {
  const me = core.me(p);
  const reason = digestUnavailable(core, me);
  return {
    enabled: Boolean(me.email_digest) && !reason,
    available: !reason,
    ...(reason ? { reason } : {}),
    after_minutes: core.digest.afterMinutes,
  };
}
