// @ts-check
// The Messenger's words, from the same ICU message catalogs the server uses (locales/<lang>/*.json,
// served merged at /app/i18n/<lang>.json) and formatted with intl-messageformat, whose
// self-contained ES build the gateway serves at /vendor/intl-messageformat/.
// @ts-expect-error -- resolved by the browser, not by tsc; typed below
import * as M from "/vendor/intl-messageformat/intl-messageformat.iife.js";

/** @type {typeof import('intl-messageformat').IntlMessageFormat} */
const IntlMessageFormat = M.IntlMessageFormat;

/** The languages with a complete catalog (src/shared/i18n.ts LOCALES). */
export const LOCALES = /** @type {const} */ (["en", "pt"]);
const STORE_KEY = "logline.locale";

let current = "en";
/** @type {Record<string, string>} */
let messages = {};
/** @type {Record<string, string>} */
let english = {};
/** @type {Map<string, import('intl-messageformat').IntlMessageFormat>} */
let compiled = new Map();

/** The first supported language among preferences ("pt-BR" → "pt"), else English. @param {(string | null | undefined)[]} prefs */
export function pickLocale(...prefs) {
  for (const pref of prefs) {
    if (!pref) continue;
    try {
      const lang = new Intl.Locale(pref).language;
      if (/** @type {readonly string[]} */ (LOCALES).includes(lang)) return lang;
    } catch {
      /* not a language tag */
    }
  }
  return "en";
}

/** @param {string} lang @returns {Promise<Record<string, string>>} */
async function fetchCatalog(lang) {
  const res = await fetch(`/app/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`catalog ${lang}: HTTP ${res.status}`);
  return await res.json();
}

/**
 * A profile's "Automatic" choice: BCP 47's "undetermined" language, so the browser's languages
 * decide (the profile's locale is a language tag; this one names none).
 */
export const AUTO = "und";

/** @type {Map<string, Record<string, string>>} */
const loaded = new Map();

/**
 * Loads a language and sets the page's lang and dir. The choice, in order: `preferred` (the
 * profile's language), else the one used last on this browser, else the browser's. With `AUTO`
 * (the profile says "Automatic") only the browser's languages count.
 * @param {string | null | undefined} [preferred]
 */
export async function loadLocale(preferred) {
  const auto = preferred === AUTO;
  const lang = auto
    ? pickLocale(...navigator.languages)
    : pickLocale(preferred, localStorage.getItem(STORE_KEY), ...navigator.languages);
  const load = async (/** @type {string} */ l) => loaded.get(l) ?? loaded.set(l, await fetchCatalog(l)).get(l) ?? {};
  english = await load("en");
  messages = await load(lang);
  current = lang;
  compiled = new Map();
  localStorage.setItem(STORE_KEY, auto ? AUTO : lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = textDirection(lang);
  return lang;
}

/** "rtl" for right-to-left scripts (Intl.Locale text info where the browser has it). @param {string} lang */
function textDirection(lang) {
  const loc = /** @type {any} */ (new Intl.Locale(lang));
  const info = typeof loc.getTextInfo === "function" ? loc.getTextInfo() : loc.textInfo;
  return info?.direction === "rtl" ? "rtl" : "ltr";
}

/**
 * One message, formatted. A key the language lacks falls back to English; a key English lacks
 * shows as the key itself (and the catalog test fails on it).
 * @param {string} key @param {Record<string, unknown>} [values]
 */
export function t(key, values) {
  let fmt = compiled.get(key);
  if (!fmt) {
    const own = messages[key];
    const source = own ?? english[key];
    if (source === undefined) {
      console.error(`i18n: no message "${key}"`);
      return key;
    }
    fmt = new IntlMessageFormat(source, own === undefined ? "en" : current);
    compiled.set(key, fmt);
  }
  return String(fmt.format(/** @type {any} */ (values)));
}

/**
 * Formatters made once per language and options: making one costs far more than using it, and
 * a timeline draws a time on every row.
 * @type {Map<string, Intl.DateTimeFormat | Intl.NumberFormat>}
 */
const formatters = new Map();
/** @template T @param {string} kind @param {object | undefined} opts @param {() => T} make @returns {T} */
function formatter(kind, opts, make) {
  const key = `${kind} ${current} ${JSON.stringify(opts ?? {})}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = /** @type {any} */ (make())));
  return /** @type {T} */ (f);
}
/** Dates, times and numbers in the person's language. @param {Intl.DateTimeFormatOptions} opts */
export const dateFormat = (opts) => formatter("date", opts, () => new Intl.DateTimeFormat(current, opts));
/** @param {Intl.NumberFormatOptions} [opts] */
export const numberFormat = (opts) => formatter("number", opts, () => new Intl.NumberFormat(current, opts));
/** "Ana, Dan and Rui" in the person's language. @param {Intl.ListFormatOptions} [opts] */
export const listFormat = (opts) => new Intl.ListFormat(current, opts);
