/**
 * Child process of the ledger benchmark: boots a ledger on an existing database (migrations,
 * streaming every row into the fold, loading heads) and prints one JSON line with the timing and
 * this process's peak RSS, which is why it runs in its own process.
 */
import { openDatabase } from "../../src/shared/db.js";
import { createLedger } from "../../src/ledger/index.js";

const [dbPath, dataDir] = process.argv.slice(2) as [string, string];
const db = openDatabase({ path: dbPath });
const events = db.prepare("SELECT count(*) FROM ledger_events").pluck().get() as number;
const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const ledger = createLedger({ db, dataDir }).api;
const ms = performance.now() - t0;
// CPU time moves far less than wall time with other work on the same cores.
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
const tenants = ledger.tenants().length;
const peakRssMiB = process.resourceUsage().maxRSS / 1024;
// The same process then reads every payload with raw SQLite, a page at a time, parsing none:
// the floor any boot pays, measured beside it under the same load.
const page = db.prepare("SELECT payload FROM ledger_events WHERE seq > ? AND seq <= ? ORDER BY seq").pluck();
const last = db.prepare("SELECT max(seq) FROM ledger_events").pluck().get() as number;
const t1 = performance.now();
for (let after = 0; after < last; after += 4096) page.all(after, after + 4096);
const rawMs = performance.now() - t1;
process.stdout.write(
  `${JSON.stringify({ events, ms, eventsPerSec: events / (ms / 1000), eventsPerCpuSec: events / (cpuMs / 1000), rawScanPerSec: events / (rawMs / 1000), peakRssMiB, rssBeforeMiB: rssBefore / 2 ** 20, tenants })}\n`,
);
ledger.close();
db.close();
