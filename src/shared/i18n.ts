import { IntlMessageFormat } from "intl-messageformat";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Message catalogs for everything a person reads: the Messenger's words and the agents'
 * narration. One catalog per language in locales/<lang>/*.json (one file per area, flat keys
 * "area.name"), written in ICU message format and formatted with intl-messageformat, on the
 * server here and in the browser by web/i18n.js from the same files.
 */
export const LOCALES = ["en", "pt"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export type Catalog = Readonly<Record<string, string>>;
export type Translate = (
  key: string,
  values?: Record<string, string | number | Date | boolean | null | undefined>,
) => string;

const localesDir = fileURLToPath(new URL("../../locales/", import.meta.url));
const catalogs = new Map<Locale, Catalog>();

/** One language's messages, all area files merged (a key defined twice is a mistake, so it throws). */
export function catalog(locale: Locale, dir = localesDir): Catalog {
  const known = dir === localesDir ? catalogs.get(locale) : undefined;
  if (known) return known;
  const merged: Record<string, string> = {};
  const folder = join(dir, locale);
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const part = JSON.parse(readFileSync(join(folder, file), "utf8")) as Record<string, unknown>;
    for (const [key, text] of Object.entries(part)) {
      if (typeof text !== "string") throw new Error(`${locale}/${file}: "${key}" is not a string`);
      if (key in merged) throw new Error(`${locale}/${file}: "${key}" is defined twice`);
      merged[key] = text;
    }
  }
  const frozen = Object.freeze(merged);
  if (dir === localesDir) catalogs.set(locale, frozen);
  return frozen;
}

const isLocale = (s: string): s is Locale => (LOCALES as readonly string[]).includes(s);

/** The first supported language among preferences (BCP 47 tags such as "pt-BR"), else English. */
export function pickLocale(...prefs: (string | null | undefined)[]): Locale {
  for (const pref of prefs) {
    if (!pref) continue;
    try {
      const lang = new Intl.Locale(pref).language;
      if (isLocale(lang)) return lang;
    } catch {
      /* not a language tag: try the next one */
    }
  }
  return DEFAULT_LOCALE;
}

/**
 * A formatter for one language. A key missing from that language falls back to English; a key
 * missing from English is a bug and throws, so tests find it.
 */
export function translator(locale: Locale): Translate {
  const messages = catalog(locale);
  const english = catalog(DEFAULT_LOCALE);
  const compiled = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    let fmt = compiled.get(key);
    if (!fmt) {
      const own = messages[key];
      const source = own ?? english[key];
      if (source === undefined) throw new Error(`No message "${key}" in the catalog`);
      fmt = new IntlMessageFormat(source, own === undefined ? DEFAULT_LOCALE : locale);
      compiled.set(key, fmt);
    }
    return String(fmt.format(values as Record<string, string | number | Date | boolean>));
  };
}
