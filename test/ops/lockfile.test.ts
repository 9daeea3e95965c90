import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * `npm ci` installs exactly what package-lock.json lists, on whatever machine runs it. A lock
 * written on one platform once left out the other platforms' builds of rollup, and `npm ci` then
 * refused on every machine but that one. Every optional (per-platform) dependency of every locked
 * package must be in the lock, whatever platform this test runs on.
 */
interface Locked {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  lockfileVersion: number;
  packages: Record<string, Locked>;
};
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Where npm would resolve `name` from the package at `from` (its own node_modules, then up). */
function resolve(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const at = dir.lastIndexOf("node_modules/");
    dir = at <= 0 ? "" : dir.slice(0, at - 1);
  }
}

describe("package-lock.json", () => {
  it("is a v3 lock that names every direct dependency at the root", () => {
    expect(lock.lockfileVersion).toBe(3);
    const root = lock.packages[""] as Locked & { devDependencies?: Record<string, string> };
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)])
      expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
  });

  it("holds every platform's build of every optional dependency, not only this machine's", () => {
    const missing: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      for (const name of Object.keys(p.optionalDependencies ?? {}))
        if (!resolve(path, name)) missing.push(`${path || "(root)"} → ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
