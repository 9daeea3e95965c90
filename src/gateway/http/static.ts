import { ACTION_VERBS, JOB_STATES, LIMITS, REACTIONS, STREAM_EVENTS } from "../../../contracts/facts.js";
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

/**
 * Where a release's files live for good: `/r/<release>/<path>` serves `<path>` as it is in the
 * release named, cached by the browser without asking again. The page (never cached without
 * asking) names its entry, stylesheet and every module there, so a load after the first asks
 * the server for the page alone instead of revalidating ~150 files one by one. Relative imports
 * inside the modules land under the same prefix by themselves; absolute ones are rewritten.
 */
const RELEASE_PATH = /^\/r\/([A-Za-z0-9_-]{16})(\/.+)$/;
const FOREVER = "public, max-age=31536000, immutable";
const under = (release: string, path: string) => `/r/${release}${path}`;

/**
 * The release of the page: a hash of the bytes of everything it names through `/r/` (the page
 * itself, its stylesheet, its first script, every module). Any changed byte makes a new one.
 */
function releaseOf(files: Array<[string, string]>): string {
  return createHash("sha1")
    .update(files.map(([path, tag]) => `${path} ${tag}`).join("\n"))
    .digest("base64url")
    .slice(0, 16);
}

/** A module's text with its absolute imports ("/vendor/…", "/app/facts.js") moved under the release. */
function withReleaseImports(body: Uint8Array, path: string, release: string): Uint8Array {
  initSync();
  const text = new TextDecoder().decode(body);
  const [imports] = parse(text, path);
  let out = "";
  let from = 0;
  for (const i of imports) {
    // Static imports only (the app has no dynamic ones): `s`..`e` is the specifier itself.
    if (i.d !== -1 || !i.n?.startsWith("/") || i.n.startsWith("//")) continue;
    out += `${text.slice(from, i.s)}${under(release, i.n)}`;
    from = i.e;
  }
  return from === 0 ? body : new TextEncoder().encode(out + text.slice(from));
}

/** The page naming its stylesheet, first script, entry and a `modulepreload` link per module under the release. */
function releasePage(page: Uint8Array, modules: string[], release: string): Uint8Array {
  const text = new TextDecoder().decode(page);
  const tag = '<script type="module" src="/main.js"></script>';
  if (!text.includes(tag)) return page;
  const links = modules.map((m) => `<link rel="modulepreload" href="${under(release, m)}" />`).join("\n    ");
  return new TextEncoder().encode(
    text
      .replace(tag, `${links}\n    ${tag.replace('"/main.js"', `"${under(release, "/main.js")}"`)}`)
      .replace('href="/styles.css"', `href="${under(release, "/styles.css")}"`)
      .replace('src="/theme-boot.js"', `src="${under(release, "/theme-boot.js")}"`),
  );
}

/** Files the page names by their place in the release besides its modules. */
const PAGE_FILES = ["/main.js", "/styles.css", "/theme-boot.js"];

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
  release: { id: string; files: Set<string> },
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
  // What the page names under its release is kept under that name, as the page will ask for it.
  return { version, files: files.map((f) => (release.files.has(f) ? under(release.id, f) : f)) };
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
  const shared = { LIMITS, ACTION_VERBS, REACTIONS, STREAM_EVENTS, JOB_STATES };
  const facts = `// Served from contracts/facts.ts; do not edit.\n${Object.entries(shared)
    .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};\n`)
    .join("")}`;
  const listed = new Map<string, string>();
  listFiles(web, "", listed);
  for (const pkg of vendors.keys()) listFiles(join(nm, pkg), `/vendor/${pkg}`, listed);
  const fromFiles = fileMemory(listed);
  // The page of the current release, made again only when index.html or a module changes.
  let page0: { from: Held; modules: string[]; release: string; made: Held } | null = null;
  // What each recent release named: path → the tag of its bytes (the latest few releases).
  const releases = new Map<string, Map<string, string>>();
  const pageNow = (): typeof page0 => {
    const held = fromFiles("/index.html");
    if (!held) return null;
    const modules = moduleGraph("/main.js", fromFiles);
    const tags = [...PAGE_FILES, ...modules].map((m): [string, string] => [
      m,
      fromFiles(m)?.etag ?? generated(m)?.etag ?? "",
    ]);
    const release = releaseOf([["/index.html", held.etag], ...tags]);
    if (page0?.from !== held || page0.release !== release) {
      const body = releasePage(held.body, modules, release);
      page0 = { from: held, modules, release, made: { ...held, body, etag: tagOf(body) } };
      if (releases.size >= 4) releases.delete(releases.keys().next().value!);
      releases.set(release, new Map(tags));
    }
    return page0;
  };
  /**
   * Whether `/r/<release><path>` would answer exactly the bytes the release named: then it can be
   * kept for good. One lookup, not a walk of the module graph per file asked for.
   */
  const asReleased = (release: string, path: string, etag: string) => releases.get(release)?.get(path) === etag;
  const fromMemory = (path: string): Held | null =>
    path === "/index.html" ? (pageNow()?.made ?? null) : fromFiles(path);
  // A module served under a release, its absolute imports under that release too (kept per file and release).
  const released = new WeakMap<Held, Map<string, Held>>();
  const inRelease = (held: Held, path: string, release: string): Held => {
    if (!/\.m?js$/.test(path)) return held;
    let byRelease = released.get(held);
    if (!byRelease) released.set(held, (byRelease = new Map()));
    let made = byRelease.get(release);
    if (!made) {
      const body = withReleaseImports(held.body, path, release);
      made = body === held.body ? held : { ...held, body, etag: tagOf(body) };
      // Only the current release and a page or two still open on the one before are asked for.
      if (byRelease.size > 4) byRelease.clear();
      byRelease.set(release, made);
    }
    return made;
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
  const shellOf = () => {
    const page = pageNow();
    const release = page ? { id: page.release, files: new Set([...PAGE_FILES, ...page.modules]) } : null;
    return appShell(listed, fromFiles, generated, release ?? { id: "", files: new Set() });
  };
  const answer = (c: Context, m: { body: Uint8Array | string; etag: string }, type: string, forever = false) => {
    headers("", c);
    if (forever) c.header("Cache-Control", FOREVER);
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
    // A file of a release: for good when its bytes are the ones that release named; a page still
    // open from an older release gets today's file under its own release's name, asked for again.
    const inOne = RELEASE_PATH.exec(path);
    if (inOne) {
      const [, release, inner] = inOne as unknown as [string, string, string];
      const file = inner === SW_PATH || inner === "/index.html" ? null : (generated(inner) ?? fromFiles(inner));
      if (!file) return next();
      const held = "mtimeMs" in file ? inRelease(file, inner, release) : file;
      return answer(c, held, held.type, asReleased(release, inner, file.etag));
    }
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
