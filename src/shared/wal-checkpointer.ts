import { Worker } from "node:worker_threads";
import type { Db } from "./db.js";

/**
 * Pages the main connection may leave in the log before it checkpoints itself: a backstop, so
 * the log stays bounded should the checkpoint thread fall behind or stop (≈ 40 MB at 4 KiB).
 */
const BACKSTOP_PAGES = 10_000;

export interface WalCheckpointer {
  /** Stops the thread and closes its connection (before the main connection closes). */
  stop(): Promise<void>;
}

/**
 * Moves the WAL's checkpoints off the thread that commits. By default SQLite checkpoints inside
 * the commit that takes the log past 1,000 pages: that commit then copies the pages into the
 * database file and syncs it, several milliseconds that every request waiting behind it pays
 * (the tail of the append latencies). Here a thread with its own connection checkpoints
 * (PASSIVE: never waiting for or blocking the writer) every 200 ms — a round with nothing new
 * to copy does no I/O — and the main connection checkpoints only past BACKSTOP_PAGES. The log
 * starts again from its beginning only when a commit finds it all copied, so under writes that
 * never pause it grows to the backstop, where the main connection copies the little the thread
 * has not yet (about once per BACKSTOP_PAGES instead of once per 1,000). Durability is the same:
 * a commit is synced in the log before it returns, as before.
 */
export function startWalCheckpointer(
  db: Db,
  opts: { path: string; sync: "full" | "normal"; everyMs?: number },
): WalCheckpointer {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(new URL("./wal-checkpoint-worker.mjs", import.meta.url), {
    execArgv: [],
    workerData: {
      path: opts.path,
      sync: opts.sync === "normal" ? "NORMAL" : "FULL",
      everyMs: opts.everyMs ?? 200,
    },
  });
  // The thread never keeps the process alive. Should it stop on its own, the main connection
  // checkpoints as SQLite does by default again.
  worker.unref();
  let stopping = false;
  worker.on("error", () => {});
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", () => {
      if (!stopping && db.open) db.pragma("wal_autocheckpoint = 1000");
      resolve();
    }),
  );
  return {
    async stop() {
      stopping = true;
      // Held again while it stops: a process with nothing else left to do must wait for the
      // thread's exit rather than end with this promise unsettled.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
