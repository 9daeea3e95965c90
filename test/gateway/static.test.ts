import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStaticRoutes } from "../../src/gateway/http/static.js";

/** The web app's files, held in memory: the same answers as from disk, and never stale. */
let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup() {
  dir = mkdtempSync(join(tmpdir(), "logline-web-"));
  const web = join(dir, "web");
  const nm = join(dir, "node_modules");
  mkdirSync(join(web, "components"), { recursive: true });
  // Every vendored package has its folder, as in a real install (serveStatic warns about a missing one).
  for (const pkg of ["htm", "preact", "linkifyjs", "intl-messageformat", "marked", "@tanstack/virtual-core/esm"])
    mkdirSync(join(nm, pkg), { recursive: true });
  // A scoped package whose entry imports a file of its own by a relative path.
  writeFileSync(join(nm, "@tanstack/virtual-core/esm/index.js"), 'import { x } from "./utils.js";\nexport { x };\n');
  writeFileSync(join(nm, "@tanstack/virtual-core/esm/utils.js"), "export const x = 1;\n");
  writeFileSync(join(nm, "@tanstack/virtual-core/esm/unused.js"), "export const y = 1;\n");
  writeFileSync(join(web, "index.html"), "<!doctype html><title>page</title>");
  writeFileSync(join(web, "components", "app.js"), "export const v = 1;\n");
  writeFileSync(join(web, ".secret"), "no");
  writeFileSync(join(nm, "preact", "index.js"), "export default 1;\n");
  writeFileSync(join(nm, "preact", "unused.js"), "export default 2;\n");
  writeFileSync(
    join(web, "components", "uses.js"),
    'import x from "/vendor/preact/index.js";\nimport { x as y } from "/vendor/@tanstack/virtual-core/esm/index.js";\n',
  );
  writeFileSync(join(web, "sw.js"), "self.addEventListener('fetch', () => {});\n");
  writeFileSync(join(dir, "outside.txt"), "outside");
  return { web, app: createStaticRoutes({ webDir: web, nodeModules: nm }) };
}

describe("the web app's files from memory", () => {
  it("answers with the file's type and an ETag, 304 when it matches, and the new bytes once the file changes", async () => {
    const { web, app } = setup();
    const first = await app.request("/components/app.js");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(await first.text()).toBe("export const v = 1;\n");
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect((await app.request("/components/app.js", { headers: { "if-none-match": tag } })).status).toBe(304);

    const file = join(web, "components", "app.js");
    writeFileSync(file, "export const v = 22;\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const changed = await app.request("/components/app.js", { headers: { "if-none-match": tag } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe("export const v = 22;\n");
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("serves client routes as the page, vendored packages, and a file added after start; never dot-files or paths out of its folders", async () => {
    const { web, app } = setup();
    const page = await app.request("/c/cnv_1");
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("<title>page</title>");
    expect(await (await app.request("/vendor/preact/index.js")).text()).toBe("export default 1;\n");
    writeFileSync(join(web, "late.js"), "export {};\n");
    expect(await (await app.request("/late.js")).text()).toBe("export {};\n");
    for (const p of [
      "/.secret",
      "/../outside.txt",
      "/..%2foutside.txt",
      "/%2e%2e/outside.txt",
      "/vendor/preact/..%2f..%2foutside.txt",
    ]) {
      expect((await app.request(p)).status, p).not.toBe(200);
    }
  });

  it("serves the service worker with the app shell's files and one version made from their ETags; any changed file makes a new version", async () => {
    const { web, app } = setup();
    const shellOf = async () => {
      const res = await app.request("/sw.js");
      expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const body = await res.text();
      expect(body).toContain("self.addEventListener('fetch'");
      const line = body.split("\n").find((l) => l.startsWith("self.SHELL = "))!;
      return JSON.parse(line.slice("self.SHELL = ".length, -1)) as { version: string; files: string[] };
    };
    const first = await shellOf();
    expect(first.files).toEqual(
      expect.arrayContaining([
        "/",
        "/components/app.js",
        "/components/uses.js",
        "/vendor/preact/index.js",
        "/vendor/@tanstack/virtual-core/esm/index.js",
        "/vendor/@tanstack/virtual-core/esm/utils.js",
        "/app/facts.js",
        "/app/i18n/en.json",
      ]),
    );
    // Not the worker itself, hidden files, or vendored files the app never imports.
    for (const f of [
      "/sw.js",
      "/.secret",
      "/index.html",
      "/vendor/preact/unused.js",
      "/vendor/@tanstack/virtual-core/esm/unused.js",
    ])
      expect(first.files).not.toContain(f);
    expect(await shellOf()).toEqual(first);

    const file = join(web, "components", "app.js");
    writeFileSync(file, "export const v = 3;\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const second = await shellOf();
    expect(second.files).toEqual(first.files);
    expect(second.version).not.toBe(first.version);
  });

  it("names every module the page's entry imports as a modulepreload link, and only those; a new import changes the page", async () => {
    const { web } = setup();
    writeFileSync(
      join(web, "index.html"),
      '<!doctype html><head><script type="module" src="/main.js"></script></head><title>page</title>',
    );
    writeFileSync(join(web, "main.js"), 'import "./components/uses.js";\n');
    const app = createStaticRoutes({ webDir: web, nodeModules: join(dir, "node_modules") });
    const preloads = async (path = "/") => {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      const body = await res.text();
      const release = /src="\/r\/([\w-]{16})\/main\.js"/.exec(body)?.[1];
      const links = [...body.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);
      // Every module is named under the page's release.
      for (const l of links) expect(l.startsWith(`/r/${release}/`)).toBe(true);
      return { tag: res.headers.get("etag"), release, links: links.map((l) => l.slice(`/r/${release}`.length)) };
    };
    const first = await preloads();
    expect(first.release).toMatch(/^[\w-]{16}$/);
    expect(first.links).toEqual([
      "/components/uses.js",
      "/vendor/preact/index.js",
      "/vendor/@tanstack/virtual-core/esm/index.js",
      "/vendor/@tanstack/virtual-core/esm/utils.js",
    ]);
    // A client route is the same page.
    expect((await preloads("/c/cnv_1")).links).toEqual(first.links);

    const main = join(web, "main.js");
    writeFileSync(main, 'import "./components/uses.js";\nimport { v } from "./components/app.js";\nexport { v };\n');
    utimesSync(main, new Date(), new Date(Date.now() + 5000));
    const second = await preloads();
    expect(second.links).toContain("/components/app.js");
    expect(second.tag).not.toBe(first.tag);
    expect(second.release).not.toBe(first.release);
  });

  it("serves the current release's files for good, its modules' absolute imports inside it, an older release's to be asked again", async () => {
    const { web } = setup();
    writeFileSync(
      join(web, "index.html"),
      '<!doctype html><head><link rel="stylesheet" href="/styles.css" /><script src="/theme-boot.js"></script><script type="module" src="/main.js"></script></head>',
    );
    writeFileSync(join(web, "main.js"), 'import "./components/uses.js";\n');
    writeFileSync(join(web, "styles.css"), "body { color: black }\n");
    writeFileSync(join(web, "theme-boot.js"), "document.documentElement.dataset.theme = 'light';\n");
    const app = createStaticRoutes({ webDir: web, nodeModules: join(dir, "node_modules") });
    const page = await (await app.request("/")).text();
    const release = /src="\/r\/([\w-]{16})\/main\.js"/.exec(page)![1]!;
    expect(page).toContain(`href="/r/${release}/styles.css"`);
    expect(page).toContain(`src="/r/${release}/theme-boot.js"`);

    const uses = await app.request(`/r/${release}/components/uses.js`);
    expect(uses.status).toBe(200);
    expect(uses.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(uses.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await uses.text()).toBe(
      `import x from "/r/${release}/vendor/preact/index.js";\nimport { x as y } from "/r/${release}/vendor/@tanstack/virtual-core/esm/index.js";\n`,
    );
    // Relative imports need no change: they resolve under the release by themselves.
    const vendored = await app.request(`/r/${release}/vendor/@tanstack/virtual-core/esm/index.js`);
    expect(await vendored.text()).toBe('import { x } from "./utils.js";\nexport { x };\n');
    expect((await app.request(`/r/${release}/styles.css`)).headers.get("cache-control")).toContain("immutable");
    expect((await app.request(`/r/${release}/app/facts.js`)).status).toBe(200);
    // Unversioned paths still answer, asked again each time.
    expect((await app.request("/components/uses.js")).headers.get("cache-control")).toBe("no-cache");
    // Not the page or the worker, nothing missing, nothing hidden or out of the folders.
    for (const p of ["/index.html", "/sw.js", "/nothing.js", "/.secret", "/..%2f..%2foutside.txt"])
      expect((await app.request(`/r/${release}${p}`)).status).toBe(404);

    // Another release (a page still open from before an upgrade): today's bytes, under its own name, not kept.
    const older = await app.request("/r/AAAAAAAAAAAAAAAA/components/uses.js");
    expect(older.headers.get("cache-control")).toBe("no-cache");
    expect(await older.text()).toContain('from "/r/AAAAAAAAAAAAAAAA/vendor/preact/index.js"');

    // The worker keeps the page's files under the release the page names.
    const sw = await (await app.request("/sw.js")).text();
    const shell = JSON.parse(
      sw
        .split("\n")
        .find((l) => l.startsWith("self.SHELL = "))!
        .slice(13, -1),
    );
    expect(shell.files).toEqual(
      expect.arrayContaining([`/r/${release}/main.js`, `/r/${release}/components/uses.js`, `/r/${release}/styles.css`]),
    );
    expect(shell.files).not.toContain("/main.js");

    // A changed module makes a new release; the one before is no longer kept for good where it differs.
    const file = join(web, "components", "uses.js");
    writeFileSync(file, 'import x from "/vendor/preact/index.js";\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const next = /src="\/r\/([\w-]{16})\/main\.js"/.exec(await (await app.request("/")).text())![1];
    expect(next).not.toBe(release);
    expect((await app.request(`/r/${release}/components/uses.js`)).headers.get("cache-control")).toBe("no-cache");
    // …while a file the change left alone is still byte for byte what that release named.
    expect((await app.request(`/r/${release}/styles.css`)).headers.get("cache-control")).toContain("immutable");
  });
});
