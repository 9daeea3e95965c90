import { defineConfig } from "drizzle-kit";

/**
 * Each module owns its tables and its migrations (src/<module>/migrations, applied on boot
 * with a per-module migrations table). Generate for one module with
 * `DRIZZLE_MODULE=ledger npx drizzle-kit generate`, or all of them with `npm run db:generate`.
 */
const moduleName = process.env.DRIZZLE_MODULE ?? "ledger";
if (!["ledger", "office", "gateway", "ledger-pg", "gateway-pg", "office-pg"].includes(moduleName)) {
  throw new Error(`DRIZZLE_MODULE must be ledger, office or gateway, or one of them with -pg (got ${moduleName})`);
}

// A module on PostgreSQL (src/<module>/pg) keeps its own schema, named after it, and its own migrations.
const pgModule = moduleName.endsWith("-pg") ? moduleName.slice(0, -3) : undefined;
export default pgModule
  ? defineConfig({
      dialect: "postgresql",
      schema: `./src/${pgModule}/pg/schema.ts`,
      out: `./src/${pgModule}/pg/migrations`,
      schemaFilter: [pgModule],
    })
  : defineConfig({
      dialect: "sqlite",
      schema: `./src/${moduleName}/schema.ts`,
      out: `./src/${moduleName}/migrations`,
    });
