// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the sample is JavaScript source holding templates
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { catalog } from "../../src/shared/i18n.js";
import { scanSource } from "../support/ui-strings.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const keys = new Set(Object.keys(catalog("en")));

/** Every script of the Messenger (web/lib holds the vendored doors and generated facts, no words). */
function webScripts(dir = join(root, "web")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === "lib" ? [] : webScripts(path);
    return d.name.endsWith(".js") ? [path] : [];
  });
}

describe("every word in the Messenger comes from the catalogs", () => {
  it("finds hard-coded words and unknown keys (the check itself)", () => {
    const src = [
      'const a = html`<button type="button" aria-label="Close" title=${x}>Save ${n} ·</button>`;',
      'const b = html`<${Modal} title="Your profile" okLabel=${t("common.loading")}><p>${t("common.loading")}</p><//>`;',
      'toast(ok ? "Saved" : t("common.loading"));',
      'confirmDialog({ title: `Remove ${name}?`, body: t("common.loading"), danger: true });',
      'document.title = "Inbox";',
      't("no.such.key"); t(`nowhere.${x}`); t(`common.${x}`);',
      'const fine = html`<span class="x">·</span><span>LogLine</span>`;',
      'setState({ dialog: { title: t("common.loading"), submitLabel: ok ? "Propose" : t("common.loading") } }); btn({ label: "Approve" }); f({ label: "common.loading" });',
      'const c = html`<strong>${s.device ?? "Unknown device"}</strong><b aria-label=${`End ${n}`} class=${ok ? "on" : "off"}>${t("common.loading")}</b>`;',
    ].join("\n");
    const found = scanSource("case.js", src, keys).map((f) => `${f.kind}: ${f.text}`);
    expect(found.sort()).toEqual(
      [
        "attribute aria-label: Close",
        "text: Save",
        "attribute title: Your profile",
        "toast(): Saved",
        "confirmDialog title: Remove …?",
        "document.title: Inbox",
        "missing key: no.such.key",
        "missing key: nowhere.…",
        "text: Unknown device",
        "attribute aria-label: End …",
        "property submitLabel: Propose",
        "property label: Approve",
      ].sort(),
    );
  });

  it("web/ has no hard-coded words and every t() key exists in locales/en", () => {
    const found = webScripts().flatMap((file) => scanSource(relative(root, file), readFileSync(file, "utf8"), keys));
    expect(found.map((f) => `${f.file}:${f.line} ${f.kind}: ${f.text}`)).toEqual([]);
  });
});
