import { WORKSPACE_CONVERSATION_ID, type TRedactedValue } from "../../../contracts/events.js";
import { ZUpsertContactRequest, type TUpsertContactRequest } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { ContactRow } from "../projections/state.js";
import type { ZImportContactsRequest, ZPatchContactRequest } from "../../../contracts/gateway.js";
import type { z } from "zod";
import { requireAdmin } from "../workspaces/workspaces.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const PHONE = /^\+?[\d\s().-]{6,25}$/;

function vaulted(core: Core, tenantId: string, kind: "email" | "phone", value: string | undefined): TRedactedValue[] {
  if (!value) return [];
  const r = core.office.vault.put(tenantId, kind, value);
  return [{ redacted: r.redacted, hash: r.hash, vault_ref: r.vault_ref }];
}

function check(body: Partial<TUpsertContactRequest>, row?: number): void {
  const at = row !== undefined ? { row } : {};
  if (body.email && !EMAIL.test(body.email))
    throw new AppError("VALIDATION_ERROR", `Invalid email${row !== undefined ? ` on row ${row}` : ""}`, {
      field: "email",
      ...at,
    });
  if (body.phone && !PHONE.test(body.phone))
    throw new AppError("VALIDATION_ERROR", `Invalid phone${row !== undefined ? ` on row ${row}` : ""}`, {
      field: "phone",
      ...at,
    });
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
async function upsertContacts(
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
    body: (r) => ({
      accepted: true,
      contact_ids: ids,
      ...(ids.length === 1 ? { contact_id: ids[0] } : {}),
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}

/**
 * Deleting a contact is a `contact.upserted` with `deleted: true` plus the erasure of its
 * addresses in the vault, in the same commit: the ledger keeps only the hashes and redactions it
 * always had (so it still verifies) and nothing can reveal the values again. An address another
 * contact still lists is kept; it is that contact's too.
 */
async function eraseContact(core: Core, p: Principal, row: ContactRow, idem?: IdemScope): Promise<StoredResponse> {
  const state = core.tenant(p.tenantId);
  const stillUsed = new Set(
    [...state.contacts.values()]
      .filter((c) => c.contact_id !== row.contact_id)
      .flatMap((c) => [...c.emails, ...c.phones].map((v) => v.vault_ref)),
  );
  const refs = [...row.emails, ...row.phones]
    .map((v) => v.vault_ref)
    .filter((r): r is string => !!r && !stillUsed.has(r));
  const payload = {
    contact_id: row.contact_id,
    display_name: row.display_name,
    kind: row.kind as "customer",
    emails: [],
    phones: [],
    deleted: true,
  };
  const ev = core.event(
    p.tenantId,
    "contact.upserted",
    WORKSPACE_CONVERSATION_ID,
    { entity_id: p.entityId, actor_type: "human" },
    payload,
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 200,
    extra: () => {
      for (const r of refs) core.office.vault.erase(p.tenantId, r);
    },
    body: (r) => ({
      accepted: true,
      contact_id: row.contact_id,
      deleted: true,
      erased: refs.length,
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}

function existingContact(core: Core, p: Principal, id: string): ContactRow {
  const row = core.tenant(p.tenantId).contacts.get(id);
  if (!row) throw notFound("Contact");
  return row;
}

/** Members of the tenant see the real addresses; the ledger and projection keep redactions. */
export function listContacts(core: Core, p: Principal) {
  const reveal = (v: TRedactedValue) => ({
    ...v,
    value: (v.vault_ref && core.office.vault.get(p.tenantId, v.vault_ref)) ?? null,
  });
  const items = [...core.tenant(p.tenantId).contacts.values()]
    .map((c) => ({ ...c, emails: c.emails.map(reveal), phones: c.phones.map(reveal) }))
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
  return { tenant_id: p.tenantId, items };
}

const MAX_IMPORT_ROWS = 1000;
const MAX_IMPORT_COLUMNS = 100;
/** Longer than any contact field (notes are 1,000 characters). */
const MAX_FIELD_CHARS = 10_000;
const tooManyRows = () =>
  new AppError("VALIDATION_ERROR", `At most ${MAX_IMPORT_ROWS.toLocaleString("en")} contacts per import`, {
    field: "csv",
  });

/**
 * A small RFC 4180 reader: quoted fields, doubled quotes, CRLF or LF. One pass that copies whole
 * stretches of text (never a character at a time), and it stops as soon as there are more rows
 * than an import takes (or a row with more columns than any contact list has).
 */
function parseCsv(text: string, maxRows: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let parts: string[] = [];
  let quoted = false;
  const n = text.length;
  let fieldChars = 0;
  const add = (part: string) => {
    fieldChars += part.length;
    if (fieldChars > MAX_FIELD_CHARS)
      throw new AppError(
        "VALIDATION_ERROR",
        `A field is longer than ${MAX_FIELD_CHARS.toLocaleString("en")} characters`,
        { field: "csv" },
      );
    parts.push(part);
  };
  const take = () => {
    const field = parts.join("");
    parts = [];
    fieldChars = 0;
    return field;
  };
  const endRow = () => {
    row.push(take());
    if (row.some((f) => f.trim() !== "")) rows.push(row);
    if (rows.length > maxRows) throw tooManyRows();
    row = [];
  };
  let i = 0;
  while (i < n) {
    if (quoted) {
      const q = text.indexOf('"', i);
      if (q === -1) {
        add(text.slice(i));
        i = n;
      } else if (text.charCodeAt(q + 1) === 34) {
        add(text.slice(i, q + 1));
        i = q + 2;
      } else {
        add(text.slice(i, q));
        quoted = false;
        i = q + 1;
      }
      continue;
    }
    let j = i;
    for (let c = text.charCodeAt(j); j < n && c !== 34 && c !== 44 && c !== 10 && c !== 13; c = text.charCodeAt(++j));
    if (j > i) add(text.slice(i, j));
    if (j >= n) break;
    const ch = text.charCodeAt(j);
    if (ch === 34) quoted = true;
    else if (ch === 44) {
      row.push(take());
      if (row.length >= MAX_IMPORT_COLUMNS)
        throw new AppError("VALIDATION_ERROR", `At most ${MAX_IMPORT_COLUMNS} columns per row`, { field: "csv" });
    } else {
      endRow();
      if (ch === 13 && text.charCodeAt(j + 1) === 10) j++;
    }
    i = j + 1;
  }
  if (parts.length || row.length) endRow();
  return rows;
}

function contactsFromCsv(csv: string): TUpsertContactRequest[] {
  // The header row and at most MAX_IMPORT_ROWS contacts.
  const rows = parseCsv(csv, MAX_IMPORT_ROWS + 1);
  // A column name longer than any known one is no column of ours (and is not lowercased whole).
  const header = (rows.shift() ?? []).map((h) => (h.length > 64 ? "" : h.trim().toLowerCase()));
  const col = (...names: string[]) => header.findIndex((h) => names.includes(h));
  const [name, email, phone, company, kind, notes] = [
    col("display_name", "name"),
    col("email"),
    col("phone"),
    col("company", "organization"),
    col("kind"),
    col("notes"),
  ];
  if (name < 0)
    throw new AppError("VALIDATION_ERROR", "The CSV needs a name (or display_name) column", { field: "csv" });
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
      throw new AppError("VALIDATION_ERROR", `Row ${i + 2}: ${field} ${issue?.message ?? "is invalid"}`, {
        field: "csv",
        row: i + 2,
        column: field,
      });
    }
    return parsed.data;
  });
}

/** POST /v1/contacts: one contact, 201. */
export function createContact(core: Core, p: Principal, body: TUpsertContactRequest, idem: IdemScope) {
  return upsertContacts(core, p, [{ body }], idem);
}

/** POST /v1/contacts/import: the rows of a CSV, each as a contact. */
export function importContacts(
  core: Core,
  p: Principal,
  body: z.infer<typeof ZImportContactsRequest>,
  idem: IdemScope,
) {
  return upsertContacts(
    core,
    p,
    contactsFromCsv(body.csv).map((row) => ({ body: row })),
    idem,
  );
}

/** PATCH /v1/contacts/:id: the fields given change, the rest stay. */
export function updateContact(
  core: Core,
  p: Principal,
  contactId: string,
  patch: z.infer<typeof ZPatchContactRequest>,
  idem: IdemScope,
) {
  const prev = existingContact(core, p, contactId);
  // An edit answers 200 (201 is for a contact created).
  return upsertContacts(
    core,
    p,
    [{ id: prev.contact_id, body: { ...patch, display_name: patch.display_name ?? prev.display_name } }],
    idem,
    200,
  );
}

/** DELETE /v1/contacts/:id (admins): the contact and its addresses in the vault are erased. */
export function deleteContact(core: Core, p: Principal, contactId: string, idem: IdemScope) {
  requireAdmin(core, p);
  return eraseContact(core, p, existingContact(core, p, contactId), idem);
}
