import { defineConfig } from "drizzle-kit";

/**
 * Each module owns its tables and its migrations (src/<module>/migrations, applied on boot
 * with a per-module migrations table). Generate for one module with
 * `DRIZZLE_MODULE=ledger npx drizzle-kit generate`, or all of them with `npm run db:generate`.
 */
const moduleName = process.env.DRIZZLE_MODULE ?? "ledger";
if (!["ledger", "office", "gateway", "ledger-pg"].includes(moduleName)) {
  throw new Error(`DRIZZLE_MODULE must be ledger, office, gateway or ledger-pg (got ${moduleName})`);
}

// The ledger on PostgreSQL (src/ledger/pg) keeps its own schema, `ledger`, and its own migrations.
export default moduleName === "ledger-pg"
  ? defineConfig({
      dialect: "postgresql",
      schema: "./src/ledger/pg/schema.ts",
      out: "./src/ledger/pg/migrations",
      schemaFilter: ["ledger"],
    })
  : defineConfig({
      dialect: "sqlite",
      schema: `./src/${moduleName}/schema.ts`,
      out: `./src/${moduleName}/migrations`,
    });
