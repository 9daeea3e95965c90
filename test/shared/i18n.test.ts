import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { catalog, DEFAULT_LOCALE, LOCALES, pickLocale, translator } from "../../src/shared/i18n.js";

describe("message catalogs", () => {
  it("picks the first supported language from preferences, else English", () => {
    expect(pickLocale("pt-BR", "en")).toBe("pt");
    expect(pickLocale(undefined, "fr-FR", "en-GB")).toBe("en");
    expect(pickLocale("not a tag!", "pt")).toBe("pt");
    expect(pickLocale("de")).toBe(DEFAULT_LOCALE);
  });

  it("formats ICU plurals per language", () => {
    expect(translator("en")("common.unread", { count: 1 })).toBe("1 unread message");
    expect(translator("en")("common.unread", { count: 3 })).toBe("3 unread messages");
    expect(translator("pt")("common.unread", { count: 3 })).toBe("3 mensagens por ler");
  });

  it("throws on a key English lacks", () => {
    expect(() => translator("pt")("no.such.key")).toThrow(/no\.such\.key/);
  });

  it("refuses a key defined twice across area files", () => {
    const dir = mkdtempSync(join(tmpdir(), "i18n-"));
    mkdirSync(join(dir, "en"));
    writeFileSync(join(dir, "en", "a.json"), JSON.stringify({ "x.y": "one" }));
    writeFileSync(join(dir, "en", "b.json"), JSON.stringify({ "x.y": "two" }));
    expect(() => catalog("en", dir)).toThrow(/defined twice/);
  });

  it("every language has every English key, with the same arguments", () => {
    // The arguments a message takes, read from intl-messageformat's own parse (plural and select
    // branches included), so a translated branch's words are never mistaken for arguments.
    type Node = { type: number; value?: unknown; options?: Record<string, { value: Node[] }>; children?: Node[] };
    const names = (nodes: Node[]): string[] =>
      nodes.flatMap((n) => [
        ...(n.type >= 1 && n.type <= 6 && typeof n.value === "string" ? [n.value] : []),
        ...Object.values(n.options ?? {}).flatMap((o) => names(o.value)),
        ...names(n.children ?? []),
      ]);
    const args = (src: string) => [...new Set(names(new IntlMessageFormat(src, "en").getAst() as Node[]))].sort();
    const en = catalog("en");
    for (const lang of LOCALES) {
      const other = catalog(lang);
      expect(Object.keys(other).sort(), lang).toEqual(Object.keys(en).sort());
      for (const [key, src] of Object.entries(en)) expect(args(other[key]!), `${lang} ${key}`).toEqual(args(src));
    }
  });
});
