// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { ApiError } from "../api.js";
import { setState } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../types.js').InputField} InputField */
/** @typedef {Extract<import('../store.js').Dialog, { type: 'input' }>} InputDialog */

/**
 * Field errors from the server, whatever shape they come in: `{fields:{key:msg}}`,
 * `{field, …}`, zod-like `{issues:[{path,message}]}`, or an `input_schema` with `error`s.
 * @param {ApiError} e @returns {Record<string, string>}
 */
function fieldErrors(e) {
  const d = /** @type {any} */ (e.details ?? {});
  /** @type {Record<string, string>} */
  const out = {};
  const fields = d.fields ?? d.field_errors ?? d.errors;
  if (fields && typeof fields === "object" && !Array.isArray(fields))
    for (const [k, v] of Object.entries(fields)) out[k] = String(v);
  for (const it of [...(Array.isArray(fields) ? fields : []), ...(Array.isArray(d.issues) ? d.issues : [])]) {
    const key = it.key ?? it.field ?? (Array.isArray(it.path) ? it.path[it.path.length - 1] : undefined);
    if (key != null) out[String(key)] = String(it.message ?? it.error ?? t("form.invalid"));
  }
  if (typeof d.field === "string") out[d.field.replace(/^input\./, "")] = String(d.reason ?? e.message);
  for (const f of d.input_schema?.fields ?? []) if (f.error) out[f.key] = f.error;
  return out;
}

/** @param {InputField} f */
function initial(f) {
  if (f.default_value !== undefined) return f.default_value;
  return f.type === "boolean" ? false : "";
}

/** The input modal generated from input_schema, with server field errors shown in place. @param {{ d: InputDialog }} props */
export function InputModal({ d }) {
  const fields = d.schema.fields;
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f.key, initial(f)])));
  const [errors, setErrors] = useState(
    /** @type {Record<string,string>} */ (
      Object.fromEntries(fields.filter((f) => f.error).map((f) => [f.key, /** @type {string} */ (f.error)]))
    ),
  );
  const [formError, setFormError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const first = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => first.current?.focus(), []);
  const close = () => setState({ dialog: null });

  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    /** @type {Record<string,string>} */
    const errs = {};
    /** @type {Record<string, string|number|boolean>} */
    const out = {};
    for (const f of fields) {
      const v = values[f.key];
      if (f.type === "boolean") {
        out[f.key] = !!v;
        continue;
      }
      const s = String(v ?? "").trim();
      if (!s) {
        if (f.required) errs[f.key] = `${f.label} is required`;
        continue;
      }
      if (f.type === "number") {
        const n = Number(s);
        if (!Number.isFinite(n)) {
          errs[f.key] = t("form.number");
          continue;
        }
        out[f.key] = n;
      } else out[f.key] = s;
    }
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      await d.onSubmit(out);
      close();
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError) {
        const fe = fieldErrors(err);
        setErrors(fe);
        setFormError(Object.keys(fe).length ? t("form.fix") : err.message);
      } else setFormError("Couldn’t send — check your connection and try again.");
    }
  };

  /** @param {InputField} f @param {number} n */
  const control = (f, n) => {
    const id = `f_${f.key}`;
    const err = errors[f.key];
    const common = {
      id,
      name: f.key,
      "aria-invalid": err ? "true" : undefined,
      "aria-describedby": err ? `${id}_err` : f.hint ? `${id}_hint` : undefined,
      ref: n === 0 ? first : undefined,
    };
    /** @param {any} e */
    const set = (e) =>
      setValues({ ...values, [f.key]: f.type === "boolean" ? e.currentTarget.checked : e.currentTarget.value });
    let input;
    if (f.type === "multiline")
      input = html`<textarea ...${common} rows="3" placeholder=${f.placeholder} value=${values[f.key]} onInput=${set}></textarea>`;
    else if (f.type === "select")
      input = html`<select ...${common} value=${values[f.key]} onChange=${set}>
        <option value="">${f.placeholder ?? t("common.choose")}</option>
        ${(f.options ?? []).map((o) => html`<option key=${o.value} value=${o.value}>${o.label}</option>`)}
      </select>`;
    else if (f.type === "boolean")
      input = html`<input ...${common} type="checkbox" checked=${!!values[f.key]} onChange=${set} />`;
    else
      input = html`<input ...${common} type=${f.type === "number" ? "number" : "text"} inputmode=${f.type === "number" ? "decimal" : undefined}
        placeholder=${f.placeholder} value=${values[f.key]} onInput=${set} />`;
    return html`<div key=${f.key} class=${`form-field${f.type === "boolean" ? " form-field-check" : ""}${err ? " has-error" : ""}`}>
      <label for=${id}>${f.label}${f.required ? html`<span class="req" aria-hidden="true"> *</span>` : null}</label>
      ${input}
      ${f.hint && !err ? html`<span class="hint" id=${`${id}_hint`}>${f.hint}</span>` : null}
      ${err ? html`<span class="field-error" id=${`${id}_err`} role="alert">${err}</span>` : null}
    </div>`;
  };

  return html`<${ModalFrame} title=${d.title} onClose=${close}>
    <form class="modal-form" onSubmit=${submit} noValidate>
      ${d.body ? html`<p class="modal-body">${d.body}</p>` : null}
      ${fields.map(control)}
      ${formError ? html`<p class="form-error" role="alert">${formError}</p>` : null}
      <div class="modal-actions">
        <button type="button" class="btn btn-ghost" onClick=${close}>${t("common.cancel")}</button>
        <button type="submit" class=${`btn ${d.danger ? "btn-danger" : "btn-primary"}`} disabled=${busy}>
          ${busy ? html`<span class="spinner spinner-btn" aria-hidden="true"></span>` : null}${d.submitLabel}</button>
      </div>
    </form>
  <//>`;
}
