import net from "node:net";
import Database from "better-sqlite3";

/**
 * What a test may touch follows from its kind (test/vitest.config.ts). A `pure` test opens no
 * database and no socket; a `module` test may open a temporary database but starts no server.
 * A test that breaks its kind's promise fails here, so the fast inner loop stays fast and honest.
 */
const kind = process.env.LOGLINE_TEST_KIND;

if (kind === "pure" || kind === "module") {
  net.Server.prototype.listen = () => {
    throw new Error(`a ${kind} test started a server: it belongs in the http project (test/vitest.config.ts)`);
  };
}
if (kind === "pure") {
  const refuse = () => {
    throw new Error("a pure test used a database: it belongs in the module project (test/vitest.config.ts)");
  };
  Object.assign(Database.prototype, { prepare: refuse, exec: refuse });
}
