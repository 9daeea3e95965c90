// @ts-check
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { ApiError, newKey } from "../api.js";
import { adminApi } from "../admin-api.js";
import { announce } from "../announce.js";
import { t } from "../i18n.js";

/**
 * @typedef {"enforce"|"warn"|"off"} Mode
 * @typedef {{ policy_id: string, code: string | null, pack_mode: Mode, mode: Mode, allowed_modes: Mode[], locked: boolean }} Policy
 * @typedef {{ name: string, policy_id: string, default_value: number, value: number, min: number, max: number }} Param
 * @typedef {{ policies: Policy[], params: Param[] }} Settings
 * @typedef {{ kind: "mode", policy_id: string, from: Mode, to: Mode } | { kind: "param", name: string, policy_id: string, from: number, to: number }} Change
 */

const fieldId = (/** @type {string} */ path) => `policy-${path.replace(/[^a-z0-9]+/gi, "-")}`;
const modeLabel = (/** @type {Mode} */ m) => t(`admin.policies.mode.${m}`);

/** @param {Change} c */
const changeText = (c) =>
  c.kind === "mode"
    ? t("admin.policies.changeMode", { policy: c.policy_id, from: modeLabel(c.from), to: modeLabel(c.to) })
    : t("admin.policies.changeParam", { name: c.name, from: c.from, to: c.to });

/**
 * Policy overrides for this workspace: each policy a workspace may change with its mode, each
 * parameter with its range; Preview shows what changes (nothing is written), Save writes it as
 * one ledger event. The server checks everything; its errors are shown beside the field.
 * Focus: Preview → the "What changes" heading; Save or Cancel → the Preview button; an error →
 * the field it names (else the error line).
 */
export function AdminPolicies() {
  const [settings, setSettings] = useState(/** @type {Settings | null} */ (null));
  const [modes, setModes] = useState(/** @type {Record<string, Mode>} */ ({}));
  const [params, setParams] = useState(/** @type {Record<string, string>} */ ({}));
  const [preview, setPreview] = useState(/** @type {{ changes: Change[], key: string } | null} */ (null));
  const [error, setError] = useState(/** @type {{ text: string, field: string | null } | null} */ (null));
  const previewBtn = useRef(/** @type {HTMLButtonElement | null} */ (null));
  const previewHead = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  const errorLine = useRef(/** @type {HTMLParagraphElement | null} */ (null));
  const [focusNext, setFocusNext] = useState(/** @type {"preview" | "button" | "error" | null} */ (null));

  /** @param {Settings} s */
  const reset = (s) => {
    setSettings(s);
    setModes(Object.fromEntries(s.policies.filter((p) => !p.locked).map((p) => [p.policy_id, p.mode])));
    setParams(Object.fromEntries(s.params.map((p) => [p.name, String(p.value)])));
  };
  const load = () =>
    adminApi
      .listPolicies()
      .then(reset, (e) =>
        setError({ text: e instanceof ApiError ? e.message : t("admin.policies.loadFailed"), field: null }),
      );
  useEffect(() => void load(), []);
  // Another admin saved (a policy.update frame): show what is in force now; a preview made
  // against the old settings is dropped.
  useEffect(() => {
    const onChange = () => {
      setPreview(null);
      void load();
    };
    addEventListener("logline:policies", onChange);
    return () => removeEventListener("logline:policies", onChange);
  }, []);

  useEffect(() => {
    if (!focusNext) return;
    if (focusNext === "preview") previewHead.current?.focus();
    else if (focusNext === "button") previewBtn.current?.focus();
    else if (error?.field) document.getElementById(fieldId(error.field))?.focus();
    else errorLine.current?.focus();
    setFocusNext(null);
  }, [focusNext]);

  const body = () => ({
    modes,
    params: Object.fromEntries(
      Object.entries(params).map(([k, v]) => [k, v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v]),
    ),
  });
  /** @param {unknown} e @param {string} key */
  const fail = (e, key) => {
    const field = e instanceof ApiError && typeof e.details.field === "string" ? e.details.field : null;
    setError({ text: t(key, { message: e instanceof ApiError ? e.message : String(e) }), field });
    setFocusNext("error");
  };

  /** @param {Event} e */
  const onPreview = async (e) => {
    e.preventDefault();
    try {
      const r = await adminApi.previewPolicies(/** @type {any} */ (body()));
      setError(null);
      setPreview({ changes: r.changes, key: newKey() });
      setFocusNext("preview");
    } catch (err) {
      setPreview(null);
      fail(err, "admin.policies.previewFailed");
    }
  };
  const onSave = async () => {
    if (!preview) return;
    try {
      const r = await adminApi.savePolicies(/** @type {any} */ (body()), preview.key);
      announce(t("admin.policies.saved", { count: r.changes.length }));
      setPreview(null);
      setError(null);
      await load();
      setFocusNext("button");
    } catch (err) {
      fail(err, "admin.policies.failed");
    }
  };
  const onCancel = () => {
    setPreview(null);
    setFocusNext("button");
  };
  const edited = () => setPreview(null);

  const s = settings;
  const locked = s ? s.policies.filter((p) => p.locked) : [];
  /** @param {string} path */
  const invalid = (path) =>
    error?.field === path ? { "aria-invalid": "true", "aria-describedby": "policies-error" } : {};

  return html`<section class="admin-section admin-policies" aria-labelledby="admin-policies">
    <h3 class="section-title" id="admin-policies">${t("admin.policies.title")}</h3>
    <p class="hint">${t("admin.policies.intro")}</p>
    ${
      s
        ? html`<form onSubmit=${onPreview} noValidate>
        <fieldset class="policy-fieldset">
          <legend>${t("admin.policies.changeable")}</legend>
          ${s.policies
            .filter((p) => !p.locked)
            .map(
              (p) => html`<div class="form-field policy-row" key=${p.policy_id}>
                <label for=${fieldId(`modes.${p.policy_id}`)}><code>${p.policy_id}</code></label>
                <select id=${fieldId(`modes.${p.policy_id}`)} value=${modes[p.policy_id]} ...${invalid(`modes.${p.policy_id}`)}
                  onChange=${(/** @type {any} */ e) => {
                    setModes({ ...modes, [p.policy_id]: e.currentTarget.value });
                    edited();
                  }}>
                  ${p.allowed_modes.map((m) => html`<option key=${m} value=${m}>${modeLabel(m)}</option>`)}
                </select>
                <span class="hint">${t("admin.policies.packMode", { mode: modeLabel(p.pack_mode) })}</span>
              </div>`,
            )}
        </fieldset>
        ${
          s.params.length
            ? html`<fieldset class="policy-fieldset">
          <legend>${t("admin.policies.params")}</legend>
          ${s.params.map(
            (p) => html`<div class="form-field policy-row" key=${p.name}>
              <label for=${fieldId(`params.${p.name}`)}><code>${p.name}</code></label>
              <input id=${fieldId(`params.${p.name}`)} type="number" inputMode="numeric" step="1" min=${p.min} max=${p.max} value=${params[p.name]}
                aria-describedby=${error?.field === `params.${p.name}` ? `policies-error ${fieldId(`hint-${p.name}`)}` : fieldId(`hint-${p.name}`)}
                aria-invalid=${error?.field === `params.${p.name}` ? "true" : undefined}
                onInput=${(/** @type {any} */ e) => {
                  setParams({ ...params, [p.name]: e.currentTarget.value });
                  edited();
                }} />
              <span class="hint" id=${fieldId(`hint-${p.name}`)}>${t("admin.policies.paramHint", { min: p.min, max: p.max, initial: p.default_value })}</span>
            </div>`,
          )}
        </fieldset>`
            : null
        }
        ${error ? html`<p class="form-error" id="policies-error" role="alert" tabIndex="-1" ref=${errorLine}>${error.text}</p>` : null}
        <button type="submit" class="btn btn-secondary" ref=${previewBtn}>${t("admin.policies.preview")}</button>
      </form>`
        : error
          ? html`<p class="form-error" role="alert">${error.text}</p>`
          : html`<div class="loading">${t("common.loading")}</div>`
    }
    ${
      preview
        ? html`<div class="policy-preview" role="region" aria-labelledby="policies-preview-title">
        <h4 id="policies-preview-title" tabIndex="-1" ref=${previewHead}>${t("admin.policies.whatChanges")}</h4>
        ${preview.changes.length ? html`<ul>${preview.changes.map((c, i) => html`<li key=${i}>${changeText(c)}</li>`)}</ul>` : html`<p>${t("admin.policies.nothing")}</p>`}
        <div class="admin-actions">
          ${preview.changes.length ? html`<button type="button" class="btn btn-primary" onClick=${onSave}>${t("admin.policies.save")}</button>` : null}
          <button type="button" class="btn btn-ghost" onClick=${onCancel}>${t("admin.policies.cancel")}</button>
        </div>
      </div>`
        : null
    }
    ${
      locked.length
        ? html`<details class="policy-locked">
        <summary>${t("admin.policies.locked", { count: locked.length })}</summary>
        <ul>${locked.map((p) => html`<li key=${p.policy_id}>${t("admin.policies.lockedItem", { policy: p.policy_id, mode: modeLabel(p.mode) })}</li>`)}</ul>
      </details>`
        : null
    }
  </section>`;
}
