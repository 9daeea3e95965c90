import { ACTION_VERBS, LIMITS, REACTIONS } from "../../contracts/facts.js";
import { catalog, LOCALES, type Locale } from "../shared/i18n.js";
import { emojiSet } from "./emoji-set.js";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type Context } from "hono";
import { etag } from "hono/etag";
import { getMimeType } from "hono/utils/mime";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Client-side routes that all load the single page. */
const SPA_ROUTES = [
  /^\/$/,
  /^\/c\/[^/]+$/,
  /^\/c\/[^/]+\/m\/[^/]+$/,
  /^\/c\/[^/]+\/t\/[^/]+$/,
  /^\/jobs\/[^/]+$/,
  /^\/contacts$/,
  /^\/outbox$/,
  /^\/tools$/,
  /^\/admin$/,
  /^\/onboarding$/,
  /^\/invite\/[^/]+$/,
  /^\/signin$/,
  /^\/signin\/link$/,
];

const root = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** Revalidated on every load (no-cache) and cheap to revalidate: the ETag answers 304. */
const headers = (_path: string, c: Context) => {
  c.header("Cache-Control", "no-cache");
  c.header("X-Content-Type-Options", "nosniff");
};

/** One file's bytes and validator, kept while the file on disk is unchanged. */
interface Held {
  body: Uint8Array;
  etag: string;
  type: string;
  mtimeMs: number;
  size: number;
}

const tagOf = (bytes: Uint8Array | string) => `"${createHash("sha1").update(bytes).digest("base64url")}"`;

/** Every regular file under `dir` (dot-names skipped), as URL path (under `prefix`) → file. */
function listFiles(dir: string, prefix: string, into: Map<string, string>): void {
  let names: import("node:fs").Dirent[];
  try {
    names = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return;
  }
  for (const d of names) {
    const file = join(d.parentPath, d.name);
    const rel = relative(dir, file).split(sep);
    if (!d.isFile() || rel.some((part) => part.startsWith(".") || part === "node_modules")) continue;
    into.set(`${prefix}/${rel.join("/")}`, file);
  }
}

/**
 * The app's files from memory: a page load asks for about 120 modules, and reading, streaming
 * and hashing each one per request cost more than the rest of the answer. Only paths listed at
 * start are held (an exact match, so nothing outside the listed folders can be named); a
 * file changed on disk is read again (a stat per request), and one added since start falls
 * through to `serveStatic`.
 */
function fileMemory(listed: Map<string, string>) {
  const held = new Map<string, Held>();
  return (path: string): Held | null => {
    const file = listed.get(path);
    if (!file) return null;
    let st: import("node:fs").Stats;
    try {
      st = statSync(file);
    } catch {
      return null;
    }
    const known = held.get(path);
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known;
    const body = readFileSync(file);
    const fresh = {
      body,
      etag: tagOf(body),
      type: getMimeType(file) ?? "application/octet-stream",
      mtimeMs: st.mtimeMs,
      size: st.size,
    };
    held.set(path, fresh);
    return fresh;
  };
}

/**
 * Serves web/ (no build step) and the vendored packages it imports by full path, with
 * Hono's serveStatic (which refuses `..`, doubled slashes and encoded separators) and ETags.
 * Mounted last, so API routes always win.
 */
export function createStaticRoutes(opts: { webDir?: string; nodeModules?: string } = {}): Hono {
  const web = opts.webDir ?? root("../../web");
  const nm = opts.nodeModules ?? root("../../node_modules");
  const page = serveStatic({ path: join(web, "index.html"), onFound: headers });
  const files = serveStatic({ root: web, onFound: headers });
  const vendors = new Map(
    ["htm", "preact", "linkifyjs", "intl-messageformat", "marked", "@tanstack/virtual-core"].map((pkg) => [
      pkg,
      serveStatic({
        root: join(nm, pkg),
        rewriteRequestPath: (p) => p.slice(`/vendor/${pkg}`.length),
        onFound: headers,
      }),
    ]),
  );
  // The facts the UI shares with the server (contracts/facts.ts), as an ES module: one copy.
  const facts = `// Served from contracts/facts.ts; do not edit.\nexport const LIMITS = ${JSON.stringify(LIMITS)};\nexport const ACTION_VERBS = ${JSON.stringify(ACTION_VERBS)};\nexport const REACTIONS = ${JSON.stringify(REACTIONS)};\n`;
  const listed = new Map<string, string>();
  listFiles(web, "", listed);
  for (const pkg of vendors.keys()) listFiles(join(nm, pkg), `/vendor/${pkg}`, listed);
  const fromMemory = fileMemory(listed);
  // Generated bodies (the facts, each language's catalog and emoji set) are made once.
  const made = new Map<string, { body: string; etag: string }>();
  const once = (key: string, make: () => string) => {
    let m = made.get(key);
    if (!m) {
      const body = make();
      m = { body, etag: tagOf(body) };
      made.set(key, m);
    }
    return m;
  };
  const answer = (c: Context, m: { body: Uint8Array | string; etag: string }, type: string) => {
    headers("", c);
    c.header("ETag", m.etag);
    return c.body(m.body as string, 200, { "content-type": type });
  };
  const app = new Hono();
  // One route for the whole web app (the access table lists it as one row).
  app.get("*", etag(), async (c, next) => {
    const path = c.req.path;
    if (path.startsWith("/v1/")) return next();
    if (path === "/app/facts.js")
      return answer(
        c,
        once(path, () => facts),
        "text/javascript; charset=utf-8",
      );
    // The message catalog of one language, all area files merged (locales/<lang>/*.json).
    const lang = /^\/app\/i18n\/([a-z]+)\.json$/.exec(path)?.[1];
    if (lang && (LOCALES as readonly string[]).includes(lang))
      return answer(
        c,
        once(path, () => JSON.stringify(catalog(lang as Locale))),
        "application/json",
      );
    // The composer's emoji picker, names in that language (emojibase-data, trimmed).
    const emojiLang = /^\/app\/emoji\/([a-z]+)\.json$/.exec(path)?.[1];
    if (emojiLang && (LOCALES as readonly string[]).includes(emojiLang)) {
      return answer(
        c,
        once(path, () => JSON.stringify({ groups: emojiSet(emojiLang as Locale) })),
        "application/json",
      );
    }
    const spa = SPA_ROUTES.some((r) => r.test(path));
    const held = fromMemory(spa ? "/index.html" : path);
    if (held) return answer(c, held, held.type);
    if (spa) return await page(c, next);
    // Hidden files (a dot at the start of any part of the path) are never served.
    if (/\/\./.test(path)) return next();
    const vendor = vendors.get(/^\/vendor\/((?:@[a-z-]+\/)?[a-z-]+)\//.exec(path)?.[1] ?? "");
    return await (vendor ?? files)(c, next);
  });
  return app;
}
