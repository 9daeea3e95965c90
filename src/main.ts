import { serve } from "@hono/node-server";
import { join } from "node:path";
import { createApp } from "./app.js";
import { openDatabase } from "./shared/db.js";

/**
 * Composition root: read config, open the database, build ledger → office → gateway, mount
 * their routes on one app and serve it.
 */
const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? "./data";
const db = openDatabase({ path: join(dataDir, "logline.sqlite"), sync: process.env.LEDGER_SYNC === "normal" ? "normal" : "full" });

const app = createApp({ routes: [] });
serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? "0.0.0.0" }, (info) => {
  console.log(`LogLine listening on http://localhost:${info.port}`);
});
process.on("SIGTERM", () => {
  db.close();
  process.exit(0);
});
