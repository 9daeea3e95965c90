import pg from "pg";

const { Client } = pg;

/**
 * Follows what other processes commit to a PostgreSQL ledger: a connection of its own LISTENs
 * on `ledger` (reconnecting a second after it drops) and hints each tenant a notification names;
 * `sweep` runs once connected (what committed while nobody listened) and every `sweepMs`.
 */
export async function followPg(opts: {
  pool: pg.Pool;
  sweepMs: number;
  sweep: () => Promise<void>;
  hint: (tenantId: string) => void;
  onError: (err: unknown) => void;
}): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let listener: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  const listen = async () => {
    if (closed) return;
    const client = new Client(opts.pool.options);
    listener = client;
    const retry = () => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => {});
      if (!closed) reconnect = setTimeout(() => void listen(), 1000);
    };
    client.on("error", retry);
    client.on("end", retry);
    client.on("notification", (n) => {
      const at = n.payload?.lastIndexOf(":") ?? -1;
      if (n.channel === "ledger" && at > 0) opts.hint(n.payload!.slice(0, at));
    });
    try {
      await client.connect();
      await client.query("LISTEN ledger");
      await opts.sweep();
    } catch (err) {
      opts.onError(err);
      retry();
    }
  };
  await listen();
  const sweeper = setInterval(() => void opts.sweep(), opts.sweepMs);
  sweeper.unref();
  return {
    async close() {
      closed = true;
      clearInterval(sweeper);
      clearTimeout(reconnect);
      const l = listener;
      listener = undefined;
      await l?.end().catch(() => {});
    },
  };
}
