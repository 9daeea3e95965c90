import { Hono } from "hono";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json; charset=utf-8",
};

/** Client-side routes that all load the single page. */
const SPA_ROUTES = [/^\/$/, /^\/c\/[^/]+$/, /^\/jobs\/[^/]+$/, /^\/contacts$/, /^\/outbox$/, /^\/onboarding$/, /^\/invite\/[^/]+$/, /^\/signin$/];

const root = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** Resolves `rel` inside `base`, or null when it would escape it (`..`, absolute paths, NUL). */
function inside(base: string, rel: string): string | null {
  if (rel.includes("\0")) return null;
  const full = normalize(join(base, rel));
  return full === base || full.startsWith(base + sep) ? full : null;
}

async function file(path: string | null): Promise<Response | null> {
  if (!path) return null;
  try {
    const s = await stat(path);
    if (!s.isFile()) return null;
    const body = await readFile(path);
    return new Response(body, {
      headers: { "content-type": TYPES[extname(path)] ?? "application/octet-stream", "cache-control": "no-cache", "x-content-type-options": "nosniff" },
    });
  } catch {
    return null;
  }
}

/**
 * Serves web/ (no build step) and the two vendored packages it imports by full path. Mounted
 * last, so API routes always win.
 */
export function createStaticRoutes(opts: { webDir?: string; nodeModules?: string } = {}): Hono {
  const web = opts.webDir ?? root("../../web");
  const nm = opts.nodeModules ?? root("../../node_modules");
  const vendors: Record<string, string> = { htm: join(nm, "htm"), preact: join(nm, "preact") };
  const app = new Hono();
  app.get("*", async (c, next) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    if (path.startsWith("/v1/")) return next();
    if (SPA_ROUTES.some((r) => r.test(path))) return (await file(join(web, "index.html"))) ?? next();
    const vendor = /^\/vendor\/(htm|preact)\/(.+)$/.exec(path);
    if (vendor) return (await file(inside(vendors[vendor[1]!]!, vendor[2]!))) ?? next();
    return (await file(inside(web, path.slice(1)))) ?? next();
  });
  return app;
}
