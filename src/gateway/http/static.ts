import { ACTION_VERBS, LIMITS, REACTIONS } from "../../../contracts/facts.js";
import { catalog, LOCALES, type Locale } from "../../shared/i18n.js";
import { emojiSet } from "./emoji-set.js";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type Context } from "hono";
import { etag } from "hono/etag";
import { getMimeType } from "hono/utils/mime";
import { initSync, parse } from "es-module-lexer";
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
 * Every module the page's entry imports, directly or not, in the order they are found: the
 * page names them all as `modulepreload` links, so the browser asks for them at once instead of
 * learning each level of imports only after the level above has arrived (about ten round trips
 * for ~140 modules). Static imports only; the app has no dynamic ones.
 */
const importsOf = new WeakMap<Held, string[]>();
function moduleGraph(entry: string, fromMemory: (path: string) => Held | null): string[] {
  initSync();
  const seen = new Set<string>([entry]);
  for (const path of seen) {
    const held = fromMemory(path);
    if (!held) continue;
    let named = importsOf.get(held);
    if (!named) {
      const [imports] = parse(new TextDecoder().decode(held.body), path);
      named = imports.flatMap((i) => (i.d === -1 && i.n && /^\.{0,2}\//.test(i.n) ? [i.n] : []));
      importsOf.set(held, named);
    }
    for (const n of named) seen.add(new URL(n, `http://app${path}`).pathname);
  }
  seen.delete(entry);
  return [...seen];
}

/** The page with a `modulepreload` link for each module before the entry's script tag. */
function withPreloads(page: Uint8Array, modules: string[]): Uint8Array {
  const text = new TextDecoder().decode(page);
  const tag = '<script type="module" src="/main.js"></script>';
  if (!text.includes(tag)) return page;
  const links = modules.map((m) => `<link rel="modulepreload" href="${m}" />`).join("\n    ");
  return new TextEncoder().encode(text.replace(tag, `${links}\n    ${tag}`));
}

/** The service worker's path: its scope is the whole app. */
const SW_PATH = "/sw.js";
/** The language catalogs the shell holds, so the app opens offline in any of them. */
const GENERATED_IN_SHELL = ["/app/facts.js", ...LOCALES.map((l) => `/app/i18n/${l}.json`)];

/** What the service worker keeps to open the app offline: its files and one version for them all. */
interface AppShell {
  version: string;
  files: string[];
}

/**
 * The app shell: the page, every file of web/ (not the worker itself), the vendored modules
 * web/ imports by full path, and the generated facts and catalogs. Its version is a hash of
 * their ETags, the same validators the files are served with, so any changed byte makes a new
 * version and the worker replaces the whole cached shell.
 */
function appShell(
  listed: Map<string, string>,
  fromMemory: (path: string) => Held | null,
  generated: (path: string) => { etag: string } | null,
): AppShell {
  const tags = new Map<string, string>();
  const vendored = new Set<string>();
  for (const path of listed.keys()) {
    if (path.startsWith("/vendor/") || path === SW_PATH) continue;
    const held = fromMemory(path);
    if (!held) continue;
    tags.set(path === "/index.html" ? "/" : path, held.etag);
    if (!path.endsWith(".js")) continue;
    // Our own modules name the vendored files they import by full path (web/lib/*.js, web/i18n.js).
    for (const m of new TextDecoder()
      .decode(held.body)
      .matchAll(/["'](\/vendor\/(?:@[a-z-]+\/)?[a-z-]+\/[\w./-]+)["']/g))
      vendored.add(m[1] as string);
  }
  // …and a vendored module's own relative imports (`from "../utils.js"`), followed to the end.
  for (const path of vendored) {
    const held = fromMemory(path);
    if (!held) continue;
    tags.set(path, held.etag);
    if (!path.endsWith(".js")) continue;
    for (const m of new TextDecoder().decode(held.body).matchAll(/(?:from|import)\s*["'](\.{1,2}\/[\w./-]+)["']/g))
      vendored.add(new URL(m[1] as string, `http://shell${path}`).pathname);
  }
  for (const path of GENERATED_IN_SHELL) {
    const made = generated(path);
    if (made) tags.set(path, made.etag);
  }
  const files = [...tags.keys()].sort();
  const version = createHash("sha1")
    .update(files.map((f) => `${f} ${tags.get(f)}`).join("\n"))
    .digest("base64url")
    .slice(0, 16);
  return { version, files };
}

/** The line the served worker starts with. */
const shellHeader = (shell: AppShell) =>
  `// Served by the gateway: the app shell of this release.\nself.SHELL = ${JSON.stringify(shell)};\n`;

/**
 * Serves web/ (no build step) and the vendored packages it imports by full path, with
 * Hono's serveStatic (which refuses `..`, doubled slashes and encoded separators) and ETags.
 * Mounted last, so API routes always win.
 */
export function createStaticRoutes(opts: { webDir?: string | undefined; nodeModules?: string } = {}): Hono {
  const web = opts.webDir ?? root("../../../web");
  const nm = opts.nodeModules ?? root("../../../node_modules");
  const page = serveStatic({ path: join(web, "index.html"), onFound: headers });
  const files = serveStatic({ root: web, onFound: headers });
  const vendors = new Map(
    ["htm", "preact", "linkifyjs", "intl-messageformat", "marked", "@tanstack/virtual-core", "idb-keyval"].map(
      (pkg) => [
        pkg,
        serveStatic({
          root: join(nm, pkg),
          rewriteRequestPath: (p) => p.slice(`/vendor/${pkg}`.length),
          onFound: headers,
        }),
      ],
    ),
  );
  // The facts the UI shares with the server (contracts/facts.ts), as an ES module: one copy.
  const facts = `// Served from contracts/facts.ts; do not edit.\nexport const LIMITS = ${JSON.stringify(LIMITS)};\nexport const ACTION_VERBS = ${JSON.stringify(ACTION_VERBS)};\nexport const REACTIONS = ${JSON.stringify(REACTIONS)};\n`;
  const listed = new Map<string, string>();
  listFiles(web, "", listed);
  for (const pkg of vendors.keys()) listFiles(join(nm, pkg), `/vendor/${pkg}`, listed);
  const fromFiles = fileMemory(listed);
  // The page, with its module list, made again only when index.html or a module changes.
  let page0: { from: Held; modules: string[]; made: Held } | null = null;
  const fromMemory = (path: string): Held | null => {
    if (path !== "/index.html") return fromFiles(path);
    const held = fromFiles(path);
    if (!held) return null;
    const modules = moduleGraph("/main.js", fromFiles);
    if (page0?.from !== held || page0.modules.join() !== modules.join()) {
      const body = withPreloads(held.body, modules);
      page0 = { from: held, modules, made: { ...held, body, etag: tagOf(body) } };
    }
    return page0.made;
  };
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
  /** A generated body (facts, a language's catalog or emoji set) by its path, or null. */
  const generated = (path: string): { body: string; etag: string; type: string } | null => {
    if (path === "/app/facts.js") return { ...once(path, () => facts), type: "text/javascript; charset=utf-8" };
    // The message catalog of one language, all area files merged (locales/<lang>/*.json).
    const lang = /^\/app\/i18n\/([a-z]+)\.json$/.exec(path)?.[1];
    if (lang && (LOCALES as readonly string[]).includes(lang))
      return { ...once(path, () => JSON.stringify(catalog(lang as Locale))), type: "application/json" };
    // The composer's emoji picker, names in that language (emojibase-data, trimmed).
    const emojiLang = /^\/app\/emoji\/([a-z]+)\.json$/.exec(path)?.[1];
    if (emojiLang && (LOCALES as readonly string[]).includes(emojiLang))
      return {
        ...once(path, () => JSON.stringify({ groups: emojiSet(emojiLang as Locale) })),
        type: "application/json",
      };
    return null;
  };
  const shellOf = () => appShell(listed, fromMemory, generated);
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
    const gen = generated(path);
    if (gen) return answer(c, gen, gen.type);
    // The service worker, with the list of the app shell's files and its version before its code.
    if (path === SW_PATH) {
      const held = fromMemory(SW_PATH);
      if (held) {
        const body = `${shellHeader(shellOf())}${new TextDecoder().decode(held.body)}`;
        c.header("Service-Worker-Allowed", "/");
        return answer(c, { body, etag: tagOf(body) }, "text/javascript; charset=utf-8");
      }
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
