// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { setState } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/** Whether this is a Mac, where the switcher's key is ⌘ rather than Ctrl. */
const onMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The keys that work everywhere, as a list a screen reader reads as pairs. Opened with `?`. */
export function ShortcutsSheet() {
  const close = () => setState({ dialog: null });
  const mod = onMac() ? "⌘" : "Ctrl";
  /** @type {Array<[string[], string]>} */
  const rows = [
    [[mod, "K"], t("shortcuts.switch")],
    [["↑"], t("shortcuts.edit_last")],
    [["Enter"], t("shortcuts.send")],
    [["Shift", "Enter"], t("shortcuts.new_line")],
    [["@"], t("shortcuts.mention")],
    [["#"], t("shortcuts.job")],
    [["Esc"], t("shortcuts.escape")],
    [["?"], t("shortcuts.this_sheet")],
  ];
  return html`<${ModalFrame} title=${t("shortcuts.title")} onClose=${close}>
    <dl class="shortcuts">
      ${rows.map(
        ([keys, what]) => html`<div class="shortcut" key=${what}>
          <dt>${keys.map((k, i) => html`${i ? " + " : ""}<kbd>${k}</kbd>`)}</dt>
          <dd>${what}</dd>
        </div>`,
      )}
    </dl>
  </${ModalFrame}>`;
}
