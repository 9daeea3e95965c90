import type { TStoredEvent } from "../../../contracts/events.js";
import type { EntityRow, TenantState } from "./state.js";

/** projection_entities (+ contacts): who is who, for display names and badges. */
export function applyEntities(state: TenantState, ev: TStoredEvent): void {
  if (ev.event_type === "entity.registered") {
    const p = ev.payload;
    const prev = state.entities.get(p.entity_id);
    state.entities.set(p.entity_id, {
      entity_id: p.entity_id,
      actor_type: p.actor_type,
      display_name: p.display_name,
      roles: p.roles ?? [],
      ...(p.role !== undefined ? { role: p.role } : {}),
      ...(p.capabilities !== undefined ? { capabilities: p.capabilities } : {}),
      ...(p.allowed_tools !== undefined ? { allowed_tools: p.allowed_tools } : {}),
      ...(p.avatar_url !== undefined ? { avatar_url: p.avatar_url } : {}),
      ...(p.email !== undefined ? { email: p.email } : {}),
      // A profile the person set outlives a later registration (a new email, new roles).
      ...(prev?.time_zone !== undefined ? { time_zone: prev.time_zone } : {}),
      ...(prev?.locale !== undefined ? { locale: prev.locale } : {}),
      ...(prev?.profile_name !== undefined ? { display_name: prev.profile_name, profile_name: prev.profile_name } : {}),
      ...(prev?.profile_avatar !== undefined
        ? { avatar_url: prev.profile_avatar, profile_avatar: prev.profile_avatar }
        : {}),
      ...(prev?.email_digest !== undefined ? { email_digest: prev.email_digest } : {}),
      ...(prev?.read_receipts !== undefined ? { read_receipts: prev.read_receipts } : {}),
      ...(prev?.status_text ? { status_text: prev.status_text } : {}),
      ...(prev?.status_until ? { status_until: prev.status_until } : {}),
      ...(prev?.dnd_until ? { dnd_until: prev.dnd_until } : {}),
      ...(prev?.status ? { status: prev.status } : {}),
      ...(prev?.paused ? { paused: true } : {}),
      registered_ms: prev?.registered_ms ?? Date.parse(ev.ts),
      updated_at: ev.ts,
      source_event_id: ev.event_id,
    });
  } else if (ev.event_type === "entity.profile_updated") {
    const p = ev.payload;
    const row = state.entities.get(p.entity_id);
    if (!row) return;
    if (p.display_name !== undefined) row.display_name = row.profile_name = p.display_name;
    if (p.avatar_url !== undefined) {
      // "" removes the picture: initials again, and a later registration does not bring one back.
      row.profile_avatar = p.avatar_url;
      if (p.avatar_url) row.avatar_url = p.avatar_url;
      else delete row.avatar_url;
    }
    if (p.email_digest !== undefined) row.email_digest = p.email_digest;
    if (p.read_receipts !== undefined) row.read_receipts = p.read_receipts;
    if (p.status_text !== undefined) setOrClear(row, "status_text", p.status_text);
    if (p.status_until !== undefined) setOrClear(row, "status_until", p.status_until);
    if (p.dnd_until !== undefined) setOrClear(row, "dnd_until", p.dnd_until);
    if (p.time_zone !== undefined) row.time_zone = p.time_zone;
    if (p.locale !== undefined) row.locale = p.locale;
    row.updated_at = ev.ts;
  } else if (isAdminEvent(ev)) {
    applyAdmin(state, ev);
  } else if (ev.event_type === "contact.upserted") {
    const p = ev.payload;
    if (p.deleted) {
      state.contacts.delete(p.contact_id);
      return;
    }
    state.contacts.set(p.contact_id, {
      contact_id: p.contact_id,
      display_name: p.display_name,
      ...(p.organization !== undefined ? { organization: p.organization } : {}),
      kind: p.kind ?? "other",
      emails: p.emails ?? [],
      phones: p.phones ?? [],
      ...(p.notes !== undefined ? { notes: p.notes } : {}),
      updated_at: ev.ts,
      source_event_id: ev.event_id,
    });
  }
}

/** What every member may read of a person or agent: name, avatar, zone, language. */
export function entityView(e: EntityRow) {
  return {
    entity_id: e.entity_id,
    actor_type: e.actor_type,
    display_name: e.display_name,
    ...(e.avatar_url ? { avatar_url: e.avatar_url } : {}),
    ...(e.time_zone ? { time_zone: e.time_zone } : {}),
    ...(e.locale ? { locale: e.locale } : {}),
    ...(e.status_text
      ? { status_text: e.status_text, ...(e.status_until ? { status_until: e.status_until } : {}) }
      : {}),
    ...(e.dnd_until ? { dnd_until: e.dnd_until } : {}),
  };
}

/** "" in a profile event clears the field. */
function setOrClear(row: EntityRow, key: "status_text" | "status_until" | "dnd_until", value: string): void {
  if (value) row[key] = value;
  else delete row[key];
}

type AdminEvent = Extract<
  TStoredEvent,
  { event_type: "entity.role_changed" | "entity.deactivated" | "entity.reactivated" | "agent.paused" | "agent.resumed" }
>;
const ADMIN_EVENTS = new Set([
  "entity.role_changed",
  "entity.deactivated",
  "entity.reactivated",
  "agent.paused",
  "agent.resumed",
]);
const isAdminEvent = (ev: TStoredEvent): ev is AdminEvent => ADMIN_EVENTS.has(ev.event_type);

/** What admins did to someone: roles, deactivated or removed, paused. */
function applyAdmin(state: TenantState, ev: AdminEvent): void {
  const row = state.entities.get(ev.payload.entity_id);
  if (!row) return;
  const next = { ...row, updated_at: ev.ts, source_event_id: ev.event_id };
  if (ev.event_type === "entity.role_changed") next.roles = ev.payload.roles;
  else if (ev.event_type === "entity.deactivated") next.status = ev.payload.reason;
  else if (ev.event_type === "entity.reactivated") delete next.status;
  else if (ev.event_type === "agent.paused") next.paused = true;
  else delete next.paused;
  state.entities.set(row.entity_id, next);
}
