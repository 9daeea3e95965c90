import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./process.js";

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster on a loopback port; `stop` ends it and deletes its files. */
export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, who owns what it creates. */
  url: string;
  port: number;
  /** A new empty database on the cluster, its URL for the same superuser. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Debian keeps the server's binaries in a versioned directory off PATH (`bash test/ensure-debian.sh postgres` installs them). */
function binDir(): string {
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], "bin");
  }
  return ""; // on PATH, then
}

const BIN = binDir();
const bin = (name: string) => (BIN ? join(BIN, name) : name);

/** initdb refuses to run as root: as root, the server's commands run as Debian's `postgres` user. */
const asRoot = process.getuid?.() === 0;
const OS_USER = "postgres";
const exec = (cmd: string, args: string[]) =>
  asRoot ? run("runuser", ["-u", OS_USER, "--", cmd, ...args]) : run(cmd, args);
const own = async (path: string) => {
  if (asRoot) await run("chown", ["-R", `${OS_USER}:`, path]);
};

let template: Promise<string> | undefined;

/**
 * One `initdb` per machine and server version (≈ 0.7–1.4 s), kept in the temp dir and copied for
 * each cluster (a few tens of ms): trust authentication on loopback, UTF-8, C collation, nothing
 * fsynced. Built aside and renamed into place, so processes starting together never see half of one.
 */
function templateDir(): Promise<string> {
  template ??= (async () => {
    const final = join(tmpdir(), `logline-pg-template-${BIN ? BIN.split("/").at(-2) : "path"}`);
    const data = join(final, "data");
    if (existsSync(join(data, "PG_VERSION"))) return data;
    const dir = mkdtempSync(join(tmpdir(), "logline-pg-initdb-"));
    try {
      await own(dir);
      await exec(bin("initdb"), [
        "-D",
        join(dir, "data"),
        "-A",
        "trust",
        "-U",
        "postgres",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
        "--no-instructions",
      ]);
      try {
        renameSync(dir, final);
      } catch {
        // another process put its template in place first: use that one
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return data;
  })();
  return template;
}

/**
 * Starts a cluster of its own: PostgreSQL from Debian, durability off (a test's data dies with
 * it) unless `durable` (fsync and synchronous commit on, as a server runs: the benchmarks).
 */
export async function startPostgres(opts: { durable?: boolean } = {}): Promise<PgCluster> {
  const data0 = await templateDir();
  const dir = mkdtempSync(join(tmpdir(), "logline-pg-"));
  const data = join(dir, "data");
  cpSync(data0, data, { recursive: true, preserveTimestamps: true });
  await own(dir);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    ...(opts.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
    "-c max_connections=40",
  ].join(" ");
  try {
    await exec(bin("pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "20", "start"]);
  } catch (e) {
    const log = existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8") : "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${(e as Error).message}\n${log}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await exec(bin("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
