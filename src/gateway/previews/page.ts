import { Parser } from "htmlparser2";
import { PREVIEW_LIMITS } from "../../../contracts/events.js";

/** What a page says of itself: its title, description and site name, plain text and cut to size. */
export interface PageFacts {
  title?: string;
  description?: string;
  site_name?: string;
}

/** Whitespace runs become one space, control characters go, and the text is cut to `max` characters (with …). */
function cleanText(raw: string, max: number): string | undefined {
  let out = "";
  let space = false;
  for (const ch of raw) {
    const code = ch.codePointAt(0) ?? 0;
    const blank = code <= 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    if (blank) {
      space = out.length > 0;
      continue;
    }
    if (space) out += " ";
    space = false;
    out += ch;
  }
  if (!out) return undefined;
  const chars = [...out];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : out;
}

/**
 * A streaming reader of a page's head (htmlparser2, which decodes entities and survives broken
 * markup): Open Graph first, then Twitter card tags, then `<title>` and `<meta name=description>`.
 * `done` turns true at `</head>` or `<body>`, so the fetcher can stop reading there.
 */
export function createHeadReader() {
  const meta = new Map<string, string>();
  let title = "";
  let inTitle = false;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (done) return;
        if (name === "body") done = true;
        else if (name === "title") inTitle = true;
        else if (name === "meta") {
          const key = (attrs.property ?? attrs.name ?? "").toLowerCase();
          const content = attrs.content;
          if (key && content !== undefined && !meta.has(key) && meta.size < 200) meta.set(key, content.slice(0, 4000));
        }
      },
      ontext(text) {
        if (inTitle && title.length < 4000) title += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (name === "head") done = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v !== undefined && v.trim() !== "");
  return {
    write(chunk: string): void {
      if (!done) parser.write(chunk);
    },
    get done() {
      return done;
    },
    facts(): PageFacts {
      parser.end();
      const t = cleanText(first("og:title", "twitter:title") ?? title, PREVIEW_LIMITS.title);
      const d = cleanText(
        first("og:description", "twitter:description", "description") ?? "",
        PREVIEW_LIMITS.description,
      );
      const s = cleanText(first("og:site_name") ?? "", PREVIEW_LIMITS.siteName);
      return { ...(t ? { title: t } : {}), ...(d ? { description: d } : {}), ...(s ? { site_name: s } : {}) };
    },
  };
}
