// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { api, ApiError } from "../api.js";
import { adminApi } from "../admin-api.js";
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
    if (!form.display_name.trim()) return setError(t("contacts.name_needed"));
    setBusy(true);
    setError(null);
    try {
      /** @type {{ display_name: string, email?: string, phone?: string, company?: string }} */
      const body = { display_name: form.display_name.trim() };
      for (const k of /** @type {const} */ (["email", "phone", "company"]))
        if (form[k].trim()) body[k] = form[k].trim();
      await api.addContact(body);
      setForm({ display_name: "", email: "", phone: "", company: "" });
      toast(t("contacts.added"));
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("contacts.add_error"));
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
      const r = await adminApi.importContacts(await f.text());
      const count = r?.imported ?? r?.count;
      toast(typeof count === "number" ? t("contacts.imported", { count }) : t("contacts.imported_some"));
      await load();
    } catch (err) {
      toast(
        err instanceof ApiError
          ? t("admin.why", { what: t("contacts.import_failed"), reason: err.message })
          : t("contacts.import_failed"),
      );
    }
  };
  /** @param {Contact} c */
  const remove = async (c) => {
    if (!c.contact_id) return;
    const ok = await confirmDialog({
      title: t("contacts.delete_title", { name: c.display_name }),
      body: t("contacts.delete_body"),
      okLabel: t("bubble.delete"),
      danger: true,
    });
    if (!ok) return;
    try {
      await api.deleteContact(c.contact_id);
      toast(t("contacts.deleted"));
      await load();
    } catch (err) {
      toast(
        err instanceof ApiError
          ? t("admin.why", { what: t("contacts.delete_error"), reason: err.message })
          : t("contacts.delete_error"),
      );
    }
  };
  const isAdmin = s.me?.roles?.includes("admin") ?? false;
  /** @param {string} k */
  const bind = (k) => ({
    value: /** @type {any} */ (form)[k],
    onInput: (/** @type {any} */ e) => setForm({ ...form, [k]: e.currentTarget.value }),
  });

  return html`<section class="page" aria-label=${t("list.contacts")}>
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label=${t("common.back")} onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h1>${t("list.contacts")}</h1>
      <label class="btn btn-secondary btn-small import-btn">${t("contacts.import_csv")}
        <input type="file" accept=".csv,text/csv" class="visually-hidden" onChange=${importCsv} /></label>
    </header>
    <div class="page-body">
      <form class="contact-form" onSubmit=${add} aria-label=${t("contacts.add_form")}>
        <input aria-label=${t("contacts.name")} placeholder=${t("contacts.name")} ...${bind("display_name")} />
        <input aria-label=${t("contacts.email")} type="email" placeholder=${t("contacts.email")} ...${bind("email")} />
        <input aria-label=${t("contacts.phone")} type="tel" placeholder=${t("contacts.phone")} ...${bind("phone")} />
        <input aria-label=${t("contacts.company")} placeholder=${t("contacts.company")} ...${bind("company")} />
        <button class="btn btn-primary" type="submit" disabled=${busy}>${t("contacts.add")}</button>
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      </form>
      <p class="muted small">${t("contacts.csv_hint")}</p>
      ${items === null ? html`<div class="loading">${t("contacts.loading")}</div>` : null}
      <ul class="people">
        ${(items ?? []).map(
          (c) => html`<li key=${c.contact_id ?? c.entity_id ?? c.display_name} class="person">
          <${Avatar} name=${c.display_name} id=${c.entity_id ?? c.display_name} />
          <span class="person-text"><span class="person-name">${c.display_name}</span>
            <span class="person-sub">${[c.company, c.email ?? first(c.emails), c.phone ?? first(c.phones)].filter(Boolean).join(" · ")}</span></span>
          ${isAdmin && c.contact_id ? html`<button type="button" class="btn btn-ghost btn-small" aria-label=${t("contacts.delete_named", { name: c.display_name })} onClick=${() => remove(c)}>${t("bubble.delete")}</button>` : null}
        </li>`,
        )}
        ${items && items.length === 0 ? html`<li class="conv-empty">${t("contacts.none")}</li>` : null}
      </ul>
      <h3 class="section-title">${t("contacts.coworkers")}</h3>
      <ul class="people">
        ${Object.values(s.entities)
          .filter((e) => e.entity_id !== s.me?.entity_id && e.actor_type !== "system" && e.kind !== "contact")
          .map(
            (e) => html`<li key=${e.entity_id} class="person">
          <${Avatar} name=${e.display_name} id=${e.entity_id} agent=${e.actor_type === "agent"} />
          <span class="person-text"><span class="person-name">${e.display_name}</span>
            <span class="person-sub">${e.actor_type === "agent" ? (e.role ?? t("common.agent_coworker")) : t("chat.coworker")}</span></span>
          ${e.actor_type === "agent" ? html`<span class="role-badge">${t("contacts.agent")}</span>` : null}
        </li>`,
          )}
      </ul>
    </div>
  </section>`;
}
