import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Locale } from "../../shared/i18n.js";

const require = createRequire(import.meta.url);
/** Each language's data file, resolved where npm installed the package. */
const DATA: Record<Locale, () => string> = {
  en: () => require.resolve("emojibase-data/en/data.json"),
  pt: () => require.resolve("emojibase-data/pt/data.json"),
};

/**
 * The composer's emoji picker set, from emojibase-data (the Unicode CLDR names, in each of our
 * languages), served by this server so the picker needs nothing from the network. Trimmed to what
 * a picker shows: no skin-tone variants, no components (bare tone swatches, hair), and only
 * emoji up to Unicode Emoji 15.0 — newer ones are still missing from common emoji fonts, and a
 * picker of empty boxes helps nobody.
 */
const MAX_VERSION = 15;
/** emojibase's group numbers, in picker order (2, "component", is left out). */
const GROUPS: ReadonlyArray<[number, string]> = [
  [0, "smileys-emotion"],
  [1, "people-body"],
  [3, "animals-nature"],
  [4, "food-drink"],
  [5, "travel-places"],
  [6, "activities"],
  [7, "objects"],
  [8, "symbols"],
  [9, "flags"],
];

interface EmojibaseEmoji {
  emoji: string;
  label: string;
  group?: number;
  order?: number;
  version: number;
  tags?: string[];
}

/** One group: its key and its emoji as `[emoji, name, search words]`. */
export interface EmojiGroup {
  key: string;
  emoji: Array<[string, string, string]>;
}

const cache = new Map<Locale, EmojiGroup[]>();

export function emojiSet(locale: Locale): EmojiGroup[] {
  const known = cache.get(locale);
  if (known) return known;
  const data = JSON.parse(readFileSync(DATA[locale](), "utf8")) as EmojibaseEmoji[];
  const byGroup = new Map<number, EmojibaseEmoji[]>();
  for (const e of data) {
    if (e.group === undefined || e.version > MAX_VERSION) continue;
    let list = byGroup.get(e.group);
    if (!list) byGroup.set(e.group, (list = []));
    list.push(e);
  }
  const set = GROUPS.filter(([n]) => byGroup.has(n)).map(([n, key]) => ({
    key,
    emoji: (byGroup.get(n) ?? [])
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
      .map((e): [string, string, string] => [e.emoji, e.label, (e.tags ?? []).join(" ")]),
  }));
  cache.set(locale, set);
  return set;
}
