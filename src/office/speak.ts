import { type Locale, pickLocale, type Translate, translator } from "../shared/i18n.js";

/**
 * The language Office speaks to someone. Every word comes from the message catalogs
 * (locales/<lang>/office-*.json); a job keeps the language it started in, in its slots
 * (`locale`, absent on English jobs and on every job recorded before languages existed).
 */

const cache = new Map<Locale, Translate>();

/** The catalog's formatter for `locale` (English when absent or unknown), built once per language. */
export function words(locale?: string): Translate {
  const lang = pickLocale(locale);
  let t = cache.get(lang);
  if (!t) {
    t = translator(lang);
    cache.set(lang, t);
  }
  return t;
}

/** The language a job's cards are written in. */
export function jobLocale(slots: { locale?: string | undefined } | undefined): Locale {
  return pickLocale(slots?.locale);
}

/** The slot that records a job's language: nothing for English, so English jobs read as before. */
export function localeSlot(locale: Locale): { locale?: Locale } {
  return locale === "en" ? {} : { locale };
}

export type { Locale, Translate };
