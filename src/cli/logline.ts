import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config.js";
import { createProgress } from "../ops/progress.js";

/**
 * `npm run logline -- <command>`: the admin tasks of a LogLine install. Reads the same
 * environment and `.env` as the server (DATA_DIR above all); `--data-dir` overrides it.
 * Results go to stdout, progress and problems to stderr. Exit codes: 0 ok, 1 the operation
 * found a problem (a broken chain, a refused restore), 2 bad usage.
 */
const USAGE = `Usage: npm run logline -- <command> [options]

  workspace create --name <name> --owner <display name>
                                  create a workspace; prints the owner's sign-in link
  token rotate --tenant <id> --entity <id>
                                  revoke an entity's tokens and print a fresh sign-in link
                                  (works with the server running or stopped)
  vault erase --tenant <id> --ref <vault_ref:…>
                                  erase a vault entry and every Office copy of its value;
                                  the ledger keeps verifying (server stopped)
  keys rotate-signing             a new ledger signing key; old public keys stay published
                                  and every old checkpoint still verifies (server stopped)
  keys rotate-vault               a new vault encryption key; every entry re-encrypted in one
                                  transaction (server stopped)
  verify [--tenant <id>]          recompute hash chains and checkpoint signatures (of the
                                  PostgreSQL ledger when DATABASE_URL is set)
  migrate-to-pg [--to <url>]      copy the SQLite ledger into PostgreSQL (DATABASE_URL unless
                                  --to), resuming a copy begun before, then compare both sides
                                  (server stopped)
  backup <file>                   online backup (server may run), checked after copying
  restore <file>                  replace DATA_DIR with a checked backup (server stopped)
  export --tenant <id> [--out <file>]
                                  a tenant's events as NDJSON (stdout without --out)
  import <file>                   import an export into DATA_DIR (server stopped)
  verify-receipt <file> [--key <verifier key>]…
                                  check a job receipt offline: the signed checkpoint and
                                  every event's inclusion proof (no server, no data dir)

Options: --data-dir <dir> (default: $DATA_DIR or ./data)`;

class UsageError extends Error {}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "data-dir": { type: "string" },
      tenant: { type: "string" },
      entity: { type: "string" },
      name: { type: "string" },
      owner: { type: "string" },
      out: { type: "string" },
      ref: { type: "string" },
      key: { type: "string", multiple: true },
      to: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.help || !command || command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  // Each command loads only what it needs: verifying or backing up the ledger starts without
  // Office, the gateway or their libraries.
  if (command === "verify-receipt") return (await import("./verify-receipt.js")).verifyReceiptFile(sub, values.key);
  const config = loadConfig({ ...process.env, ...(values["data-dir"] ? { DATA_DIR: values["data-dir"] } : {}) });
  const dataDir = config.dataDir;
  const need = (v: string | undefined, what: string) => {
    if (!v) throw new UsageError(`${command}: ${what} is required`);
    return v;
  };

  switch (command) {
    case "verify":
      if (config.databaseUrl)
        return (await import("./migrate-to-pg.js")).verifyPg(dataDir, config.databaseUrl, values.tenant);
      return (await import("./verify-command.js")).verifyDataDir(dataDir, values.tenant);

    case "migrate-to-pg": {
      const url = values.to ?? config.databaseUrl;
      if (!url) throw new UsageError("migrate-to-pg: set DATABASE_URL or give --to <postgres://…>");
      if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError("migrate-to-pg: --to must be a postgres:// URL");
      return (await import("./migrate-to-pg.js")).migrateToPg(dataDir, url, config.logName);
    }

    case "backup": {
      const target = need(sub, "the backup file");
      const { createBackup, describeFailures } = await import("../ops/backup.js");
      const r = await createBackup({ dataDir, target, progress: createProgress("backup") });
      if (!r.ok) {
        for (const line of describeFailures(r)) process.stderr.write(`  ${line}\n`);
        process.stderr.write(`backup FAILED verification; the copy was kept as ${r.file}\n`);
        return 1;
      }
      process.stdout.write(`${r.file}\n`);
      return 0;
    }

    case "restore": {
      const file = need(sub, "the backup file");
      const { RestoreRefused, restoreBackup } = await import("../ops/restore.js");
      try {
        const r = restoreBackup({ file, dataDir, progress: createProgress("restore") });
        if (r.previous) process.stdout.write(`previous data kept in ${r.previous}\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof RestoreRefused)) throw err;
        process.stderr.write(`${err.message}\n`);
        for (const p of err.problems) process.stderr.write(`  ${p}\n`);
        return 1;
      }
    }

    case "export": {
      const tenant = need(values.tenant, "--tenant");
      const progress = createProgress("export");
      const { exportTenant, exportTenantToFile } = await import("../ops/export-import.js");
      if (values.out) await exportTenantToFile({ dataDir, tenant, file: values.out, progress });
      else await exportTenant({ dataDir, tenant, out: process.stdout, progress });
      return 0;
    }

    case "import": {
      const file = need(sub, "the export file");
      const { importTenant } = await import("../ops/export-import.js");
      await importTenant({ dataDir, file, progress: createProgress("import") });
      return 0;
    }

    case "workspace": {
      if (sub !== "create")
        throw new UsageError(`workspace: unknown subcommand ${sub ?? "(none)"}; try \`workspace create\``);
      const r = await (await import("./admin.js")).createWorkspace(config, {
        name: need(values.name, "--name"),
        owner: need(values.owner, "--owner"),
      });
      process.stdout.write(
        `workspace ${r.tenant_id} created; owner ${r.owner_entity_id}\nsign-in link (keep it secret): ${r.signin_url}\n`,
      );
      return 0;
    }

    case "token": {
      if (sub !== "rotate") throw new UsageError(`token: unknown subcommand ${sub ?? "(none)"}; try \`token rotate\``);
      const r = await (await import("./admin.js")).rotateToken(config, {
        tenant: need(values.tenant, "--tenant"),
        entity: need(values.entity, "--entity"),
      });
      process.stdout.write(
        `revoked ${r.revoked} token(s) of ${r.entity_id}\nnew sign-in link (keep it secret): ${r.signin_url}\n`,
      );
      return 0;
    }

    case "keys": {
      if (sub !== "rotate-signing" && sub !== "rotate-vault")
        throw new UsageError(
          `keys: unknown subcommand ${sub ?? "(none)"}; try \`keys rotate-signing\` or \`keys rotate-vault\``,
        );
      const { rotateKeys } = await import("./admin.js");
      process.stdout.write(`${rotateKeys(config, sub === "rotate-signing" ? "signing" : "vault")}\n`);
      return 0;
    }

    case "vault": {
      if (sub !== "erase") throw new UsageError(`vault: unknown subcommand ${sub ?? "(none)"}; try \`vault erase\``);
      const ref = need(values.ref, "--ref");
      if (!ref.startsWith("vault_ref:")) throw new UsageError("vault erase: --ref must look like vault_ref:…");
      const erased = await (await import("./admin.js")).eraseVaultEntry(config, {
        tenant: need(values.tenant, "--tenant"),
        ref,
      });
      if (!erased) {
        process.stderr.write(`no live vault entry ${ref} in tenant ${values.tenant} (unknown or already erased)\n`);
        return 1;
      }
      process.stdout.write(`erased ${ref}\n`);
      return 0;
    }

    default:
      throw new UsageError(`unknown command ${[command, sub, ...rest].filter(Boolean).join(" ")}`);
  }
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
  } else if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
