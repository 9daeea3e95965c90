import { ACTION_VERBS, LIMITS, REACTIONS } from "../../contracts/facts.js";
import { catalog, LOCALES, type Locale } from "../shared/i18n.js";
import { emojiSet } from "./emoji-set.js";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type Context } from "hono";
import { etag } from "hono/etag";
import { join } from "node:path";
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
    ["htm", "preact", "linkifyjs", "intl-messageformat", "marked"].map((pkg) => [
      pkg,
      serveStatic({ root: join(nm, pkg), rewriteRequestPath: (p) => p.slice(`/vendor/${pkg}`.length), onFound: headers }),
    ]),
  );
  // The facts the UI shares with the server (contracts/facts.ts), as an ES module: one copy.
  const facts = `// Served from contracts/facts.ts; do not edit.\nexport const LIMITS = ${JSON.stringify(LIMITS)};\nexport const ACTION_VERBS = ${JSON.stringify(ACTION_VERBS)};\nexport const REACTIONS = ${JSON.stringify(REACTIONS)};\n`;
  const app = new Hono();
  // One route for the whole web app (the access table lists it as one row).
  app.get("*", etag(), async (c, next) => {
    const path = c.req.path;
    if (path.startsWith("/v1/")) return next();
    if (path === "/app/facts.js") {
      headers(path, c);
      return c.body(facts, 200, { "content-type": "text/javascript; charset=utf-8" });
    }
    // The message catalog of one language, all area files merged (locales/<lang>/*.json).
    const lang = /^\/app\/i18n\/([a-z]+)\.json$/.exec(path)?.[1];
    if (lang && (LOCALES as readonly string[]).includes(lang)) {
      headers(path, c);
      return c.json(catalog(lang as Locale));
    }
    // The composer's emoji picker, names in that language (emojibase-data, trimmed).
    const emojiLang = /^\/app\/emoji\/([a-z]+)\.json$/.exec(path)?.[1];
    if (emojiLang && (LOCALES as readonly string[]).includes(emojiLang)) {
      headers(path, c);
      return c.json({ groups: emojiSet(emojiLang as Locale) });
    }
    if (SPA_ROUTES.some((r) => r.test(path))) return await page(c, next);
    const vendor = vendors.get(/^\/vendor\/([a-z-]+)\//.exec(path)?.[1] ?? "");
    return await (vendor ?? files)(c, next);
  });
  return app;
}
