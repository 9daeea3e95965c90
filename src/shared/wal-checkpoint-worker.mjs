import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/**
 * The database's WAL checkpoints, on a thread of their own (see wal-checkpointer.ts): copying
 * committed pages back into the database file and syncing it never holds the thread that
 * commits and answers requests. Plain JavaScript, so the thread starts without a TypeScript
 * loader. `workerData` brings the file's path, the synchronous level of the main connection and
 * the pause between rounds.
 */
const { path, sync, everyMs } = workerData;
const db = new Database(path);
db.pragma(`synchronous = ${sync}`);
db.pragma("busy_timeout = 0");
// PASSIVE: copies what no reader still needs, without waiting for or blocking the writer.
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

let stopping = false;
let timer;

function run() {
  timer = undefined;
  if (stopping) return;
  try {
    checkpoint.get();
  } catch {
    // Tried again at the next round; the main connection's own, larger threshold bounds the log.
  }
  timer = setTimeout(run, everyMs);
}

parentPort?.on("message", (m) => {
  if (m !== "stop") return;
  stopping = true;
  if (timer !== undefined) clearTimeout(timer);
  db.close();
  parentPort?.close();
});

run();
