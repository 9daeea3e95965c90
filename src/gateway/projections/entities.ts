import type { TStoredEvent } from "../../../contracts/events.js";
import type { TenantState } from "./state.js";

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
      registered_ms: prev?.registered_ms ?? Date.parse(ev.ts),
      updated_at: ev.ts,
      source_event_id: ev.event_id,
    });
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
