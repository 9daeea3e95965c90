import { WORKSPACE_CONVERSATION_ID, type TRedactedValue } from "../../../contracts/events.js";
import { ZUpsertContactRequest, type TUpsertContactRequest } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { ContactRow } from "../projections/state.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+?[\d\s().-]{6,25}$/;

function vaulted(core: Core, tenantId: string, kind: "email" | "phone", value: string | undefined): TRedactedValue[] {
  if (!value) return [];
  const r = core.office.vault.put(tenantId, kind, value);
  return [{ redacted: r.redacted, hash: r.hash, vault_ref: r.vault_ref }];
}

function check(body: Partial<TUpsertContactRequest>, row?: number): void {
  const at = row !== undefined ? { row } : {};
  if (body.email && !EMAIL.test(body.email)) throw new AppError("VALIDATION_ERROR", `Invalid email${row !== undefined ? ` on row ${row}` : ""}`, { field: "email", ...at });
  if (body.phone && !PHONE.test(body.phone)) throw new AppError("VALIDATION_ERROR", `Invalid phone${row !== undefined ? ` on row ${row}` : ""}`, { field: "phone", ...at });
}

function payloadOf(core: Core, p: Principal, contactId: string, body: TUpsertContactRequest, prev?: ContactRow) {
  return {
    contact_id: contactId,
    display_name: body.display_name,
    ...((body.company ?? prev?.organization) ? { organization: body.company ?? prev?.organization } : {}),
    kind: body.kind ?? (prev?.kind as "customer" | undefined) ?? "other",
    emails: body.email !== undefined ? vaulted(core, p.tenantId, "email", body.email) : (prev?.emails ?? []),
    phones: body.phone !== undefined ? vaulted(core, p.tenantId, "phone", body.phone) : (prev?.phones ?? []),
    ...((body.notes ?? prev?.notes) ? { notes: body.notes ?? prev?.notes } : {}),
  };
}

/** Contacts are people who are not users (customers, vendors); one `contact.upserted` each. */
export async function upsertContacts(
  core: Core,
  p: Principal,
  bodies: Array<{ id?: string; body: TUpsertContactRequest }>,
  idem?: IdemScope,
  status = 201,
): Promise<StoredResponse> {
  for (const [i, b] of bodies.entries()) check(b.body, bodies.length > 1 ? i + 2 : undefined);
  const state = core.tenant(p.tenantId);
  const ids: string[] = [];
  const events = bodies.map(({ id, body }) => {
    const contactId = id ?? core.ids("ctc");
    ids.push(contactId);
    return core.event(
      p.tenantId,
      "contact.upserted",
      WORKSPACE_CONVERSATION_ID,
      { entity_id: p.entityId, actor_type: "human" },
      payloadOf(core, p, contactId, body, id ? state.contacts.get(id) : undefined),
    );
  });
  return core.commit(p.tenantId, events, {
    idem,
    status,
    body: (r) => ({ accepted: true, contact_ids: ids, ...(ids.length === 1 ? { contact_id: ids[0] } : {}), created_event_ids: r.accepted_event_ids, cursor: r.cursor }),
  });
}

/**
 * Deleting a contact is a `contact.upserted` with `deleted: true` plus the erasure of its
 * addresses in the vault, in the same commit: the ledger keeps only the hashes and redactions it
 * always had (so it still verifies) and nothing can reveal the values again. An address another
 * contact still lists is kept; it is that contact's too.
 */
export async function deleteContact(core: Core, p: Principal, row: ContactRow, idem?: IdemScope): Promise<StoredResponse> {
  const state = core.tenant(p.tenantId);
  const stillUsed = new Set([...state.contacts.values()].filter((c) => c.contact_id !== row.contact_id).flatMap((c) => [...c.emails, ...c.phones].map((v) => v.vault_ref)));
  const refs = [...row.emails, ...row.phones].map((v) => v.vault_ref).filter((r): r is string => !!r && !stillUsed.has(r));
  const payload = { contact_id: row.contact_id, display_name: row.display_name, kind: row.kind as "customer", emails: [], phones: [], deleted: true };
  const ev = core.event(p.tenantId, "contact.upserted", WORKSPACE_CONVERSATION_ID, { entity_id: p.entityId, actor_type: "human" }, payload);
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 200,
    extra: () => {
      for (const r of refs) core.office.vault.erase(p.tenantId, r);
    },
    body: (r) => ({ accepted: true, contact_id: row.contact_id, deleted: true, erased: refs.length, created_event_ids: r.accepted_event_ids, cursor: r.cursor }),
  });
}

export function existingContact(core: Core, p: Principal, id: string): ContactRow {
  const row = core.tenant(p.tenantId).contacts.get(id);
  if (!row) throw notFound("Contact");
  return row;
}

/** Members of the tenant see the real addresses; the ledger and projection keep redactions. */
export function listContacts(core: Core, p: Principal) {
  const reveal = (v: TRedactedValue) => ({ ...v, value: (v.vault_ref && core.office.vault.get(p.tenantId, v.vault_ref)) ?? null });
  const items = [...core.tenant(p.tenantId).contacts.values()]
    .map((c) => ({ ...c, emails: c.emails.map(reveal), phones: c.phones.map(reveal) }))
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
  return { tenant_id: p.tenantId, items };
}

/** A small RFC 4180 reader: quoted fields, doubled quotes, CRLF or LF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field), rows.push(row), (row = []), (field = "");
    } else field += ch;
  }
  if (field !== "" || row.length) row.push(field), rows.push(row);
  return rows.filter((r) => r.some((f) => f.trim() !== ""));
}

export function contactsFromCsv(csv: string): TUpsertContactRequest[] {
  const rows = parseCsv(csv);
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const col = (...names: string[]) => header.findIndex((h) => names.includes(h));
  const [name, email, phone, company, kind, notes] = [col("display_name", "name"), col("email"), col("phone"), col("company", "organization"), col("kind"), col("notes")];
  if (name < 0) throw new AppError("VALIDATION_ERROR", "The CSV needs a name (or display_name) column", { field: "csv" });
  if (rows.length > 1000) throw new AppError("VALIDATION_ERROR", "At most 1,000 contacts per import", { field: "csv" });
  return rows.map((r, i) => {
    const get = (c: number) => (c >= 0 ? (r[c] ?? "").trim() : "");
    const display = get(name);
    if (!display) throw new AppError("VALIDATION_ERROR", `Row ${i + 2} has no name`, { field: "csv", row: i + 2 });
    const k = get(kind);
    const contact = {
      display_name: display.slice(0, 120),
      ...(get(email) ? { email: get(email) } : {}),
      ...(get(phone) ? { phone: get(phone) } : {}),
      ...(get(company) ? { company: get(company).slice(0, 120) } : {}),
      ...(["customer", "vendor", "partner", "other"].includes(k) ? { kind: k as "customer" } : {}),
      ...(get(notes) ? { notes: get(notes).slice(0, 1000) } : {}),
    };
    // The same rules as a contact added by hand, so an import can't slip PII into a name.
    const parsed = ZUpsertContactRequest.safeParse(contact);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join(".") ?? "";
      throw new AppError("VALIDATION_ERROR", `Row ${i + 2}: ${field} ${issue?.message ?? "is invalid"}`, { field: "csv", row: i + 2, column: field });
    }
    return parsed.data;
  });
}
