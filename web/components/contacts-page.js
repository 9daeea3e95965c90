// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";
import { navigate } from "../router.js";
import { confirmDialog } from "../button-flow.js";
import { Avatar } from "./avatar.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {{ value?: string | null, redacted?: string }} Revealed */
/** @typedef {{ contact_id?: string, entity_id?: string, display_name: string, email?: string, phone?: string, company?: string,
 *   emails?: Revealed[], phones?: Revealed[] }} Contact */

/** @param {Revealed[] | undefined} list */
const first = (list) => list?.[0]?.value ?? list?.[0]?.redacted ?? undefined;

/** @param {any} r @returns {Contact[]} */
const list = (r) => (Array.isArray(r) ? r : (r?.items ?? []));

/** Contacts: the list, add one, import a CSV (name,email,phone,company). @param {{ s: State }} props */
export function ContactsPage({ s }) {
  const [items, setItems] = useState(/** @type {Contact[] | null} */ (null));
  const [form, setForm] = useState({ display_name: "", email: "", phone: "", company: "" });
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const load = () =>
    api.listContacts().then(
      (r) => setItems(list(r)),
      () => setItems([]),
    );
  useEffect(() => void load(), []);

  /** @param {Event} e */
  const add = async (e) => {
    e.preventDefault();
    if (!form.display_name.trim()) return setError("A name is needed");
    setBusy(true);
    setError(null);
    try {
      /** @type {{ display_name: string, email?: string, phone?: string, company?: string }} */
      const body = { display_name: form.display_name.trim() };
      for (const k of /** @type {const} */ (["email", "phone", "company"])) if (form[k].trim()) body[k] = form[k].trim();
      await api.addContact(body);
      setForm({ display_name: "", email: "", phone: "", company: "" });
      toast("Contact added");
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Couldn’t add the contact");
    } finally {
      setBusy(false);
    }
  };
  /** @param {any} e */
  const importCsv = async (e) => {
    const f = e.currentTarget.files?.[0];
    e.currentTarget.value = "";
    if (!f) return;
    try {
      const r = await api.importContacts(await f.text());
      toast(`Imported ${r?.imported ?? r?.count ?? "the"} contacts`);
      await load();
    } catch (err) {
      toast(err instanceof ApiError ? `Import failed: ${err.message}` : "Import failed");
    }
  };
  /** @param {Contact} c */
  const remove = async (c) => {
    if (!c.contact_id) return;
    const ok = await confirmDialog({
      title: `Delete ${c.display_name}?`,
      body: "Their email and phone are erased for good, also from invites already sent. This cannot be undone.",
      okLabel: "Delete",
      danger: true,
    });
    if (!ok) return;
    try {
      await api.deleteContact(c.contact_id);
      toast("Contact deleted");
      await load();
    } catch (err) {
      toast(err instanceof ApiError ? `Couldn’t delete: ${err.message}` : "Couldn’t delete the contact");
    }
  };
  const isAdmin = s.me?.roles?.includes("admin") ?? false;
  /** @param {string} k */
  const bind = (k) => ({ value: /** @type {any} */ (form)[k], onInput: (/** @type {any} */ e) => setForm({ ...form, [k]: e.currentTarget.value }) });

  return html`<section class="page" aria-label="Contacts">
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label="Back" onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h1>Contacts</h1>
      <label class="btn btn-secondary btn-small import-btn">Import CSV
        <input type="file" accept=".csv,text/csv" class="visually-hidden" onChange=${importCsv} /></label>
    </header>
    <div class="page-body">
      <form class="contact-form" onSubmit=${add} aria-label="Add a contact">
        <input aria-label="Name" placeholder="Name" ...${bind("display_name")} />
        <input aria-label="Email" type="email" placeholder="Email" ...${bind("email")} />
        <input aria-label="Phone" type="tel" placeholder="Phone" ...${bind("phone")} />
        <input aria-label="Company" placeholder="Company" ...${bind("company")} />
        <button class="btn btn-primary" type="submit" disabled=${busy}>Add contact</button>
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      </form>
      <p class="muted small">Import a CSV with a header row: name, email, phone, company.</p>
      ${items === null ? html`<div class="loading">Loading contacts…</div>` : null}
      <ul class="people">
        ${(items ?? []).map(
          (c) => html`<li key=${c.contact_id ?? c.entity_id ?? c.display_name} class="person">
          <${Avatar} name=${c.display_name} id=${c.entity_id ?? c.display_name} />
          <span class="person-text"><span class="person-name">${c.display_name}</span>
            <span class="person-sub">${[c.company, c.email ?? first(c.emails), c.phone ?? first(c.phones)].filter(Boolean).join(" · ")}</span></span>
          ${isAdmin && c.contact_id ? html`<button type="button" class="btn btn-ghost btn-small" aria-label=${`Delete ${c.display_name}`} onClick=${() => remove(c)}>Delete</button>` : null}
        </li>`,
        )}
        ${items && items.length === 0 ? html`<li class="conv-empty">No contacts yet. Add one above or import a CSV.</li>` : null}
      </ul>
      <h3 class="section-title">Coworkers</h3>
      <ul class="people">
        ${Object.values(s.entities)
          .filter((e) => e.entity_id !== s.me?.entity_id && e.actor_type !== "system" && e.kind !== "contact")
          .map(
            (e) => html`<li key=${e.entity_id} class="person">
          <${Avatar} name=${e.display_name} id=${e.entity_id} agent=${e.actor_type === "agent"} />
          <span class="person-text"><span class="person-name">${e.display_name}</span>
            <span class="person-sub">${e.actor_type === "agent" ? (e.role ?? "Agent coworker") : "Coworker"}</span></span>
          ${e.actor_type === "agent" ? html`<span class="role-badge">Agent</span>` : null}
        </li>`,
          )}
      </ul>
    </div>
  </section>`;
}
