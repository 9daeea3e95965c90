import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

/**
 * LogLine as the tests start it in a process of its own: the same sources, transpiled once per
 * run into a mirror of the repository, run by plain `node`.
 *
 * `node --import tsx src/main.ts` transpiles every module on every start and routes every import
 * (the dependencies' too) through the loader's hooks: about 4.3 s of CPU to load the server here,
 * against 1.9 s for the same modules already in JavaScript. The suite starts LogLine and its
 * command line dozens of times, so it transpiles once, with the same esbuild that tsx uses.
 * `ops/npm-start` and `ops/main-process` still start it exactly as the README and the systemd unit do.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
/** What is transpiled (every `.ts` under these; other files are copied: migrations, the search worker). */
const SOURCES = ["src", "contracts", "test/ledger/fixtures"];
/** What the sources reach by relative path from where they sit, linked into the mirror as they are. */
const LINKED = ["locales", "fixtures", "web", "node_modules", "package.json"];
const CACHE = join(root, "node_modules", ".cache", "logline-build");

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The mirror's folder for the sources as they are now: named by a hash of their paths and bytes. */
function treeFor(all: string[]): string {
  const hash = createHash("sha256");
  for (const f of all)
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(root, f)))
      .update("\0");
  return join(CACHE, hash.digest("hex").slice(0, 16));
}

/**
 * Builds the mirror unless one for these exact sources exists, and returns its folder. Built
 * aside and renamed into place, so two runs at once never see half a tree; older trees are removed.
 */
function buildTree(): string {
  const all = SOURCES.flatMap(files).sort();
  const tree = treeFor(all);
  if (existsSync(tree)) return tree;
  const aside = `${tree}.${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  const ts = all.filter((f) => f.endsWith(".ts"));
  buildSync({
    entryPoints: ts.map((f) => join(root, f)),
    outdir: aside,
    outbase: root,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
  for (const f of all.filter((f) => !f.endsWith(".ts"))) cpSync(join(root, f), join(aside, f));
  for (const name of LINKED) symlinkSync(join(root, name), join(aside, name));
  // The three latest trees stay (another run may still use one); by their order, not by the clock,
  // which a test run may have moved.
  const trees = (existsSync(CACHE) ? readdirSync(CACHE) : [])
    .filter((name) => !name.includes("."))
    .map((name) => ({ at: join(CACHE, name), made: statSync(join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.made - a.made);
  for (const { at } of trees.slice(3)) rmSync(at, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  try {
    renameSync(aside, tree);
  } catch {
    // Another run put the same tree in place first.
    rmSync(aside, { recursive: true, force: true });
  }
  return tree;
}

let current: string | undefined;

/** The transpiled twin of a source file (`src/main.ts` → `<mirror>/src/main.js`), built on first use. */
export function built(source: string): string {
  current ??= buildTree();
  const rel = relative(root, join(root, source));
  return join(current, rel.replace(/\.ts$/, ".js"));
}
