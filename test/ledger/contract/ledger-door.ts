import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { EventSource } from "eventsource";
import type { TStoredEvent } from "../../../contracts/events.js";
import type {
  TAppendRequest,
  TAppendResponse,
  TCheckpoint,
  TKeysResponse,
  TQueryRequest,
  TVerifyReport,
} from "../../../contracts/ledger.js";
import { createApp } from "../../../src/app.js";
import { createLedgerRoutes, type LedgerDoorApi } from "../../../src/ledger/index.js";
import { isAppError } from "../../../src/shared/errors.js";

/** A refusal as both doors report it: the error code (and the HTTP status where there is one). */
export class DoorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The part of LedgerApi that has a REST mirror, as one async shape both implementations offer.
 * `subscribe`, `replay`, `head`, `tenants`, `facts` and `close` are in-process only: the
 * gateway and Office run in the same process as the ledger and use them for projections and the
 * fold; over the wire their job is done by `GET /v1/ledger/stream` (below as `streamFrom`).
 */
export interface LedgerDoor {
  append(req: TAppendRequest): Promise<TAppendResponse>;
  query(req: TQueryRequest): Promise<{ events: TStoredEvent[]; next_cursor: string | null }>;
  checkpoint(tenantId: string): Promise<TCheckpoint | null>;
  keys(): Promise<TKeysResponse>;
  verify(tenantId: string): Promise<TVerifyReport>;
  /** The tenant's events after `afterSeq`, in order, as a stream resumed there delivers them: the first `count`. */
  streamFrom(tenantId: string, afterSeq: number, count: number): Promise<TStoredEvent[]>;
  close(): Promise<void>;
}

const refusal = (e: unknown): never => {
  if (isAppError(e)) throw new DoorError(e.code, e.message, e.details ?? {});
  throw e;
};

/** The interface itself, called in-process. */
export function inProcessDoor(ledger: LedgerDoorApi): LedgerDoor {
  const call = async <T>(f: () => T | Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      return refusal(e);
    }
  };
  return {
    append: (req) => call(() => ledger.append(req)),
    query: (req) => call(() => ledger.query(req)),
    checkpoint: (t) => call(() => ledger.checkpoint(t)),
    keys: () => call(() => ledger.keys()),
    verify: (t) => call(() => ledger.verify(t)),
    streamFrom: (tenantId, afterSeq, count) =>
      new Promise((resolve, reject) => {
        const got: TStoredEvent[] = [];
        let last = afterSeq;
        let stop = () => {};
        const take = (e: TStoredEvent) => {
          if (e.tenant_id !== tenantId || e.seq <= last || got.length >= count) return;
          last = e.seq;
          got.push(e);
          if (got.length === count) {
            stop();
            resolve(got);
          }
        };
        // What commits while the backlog is read waits behind it (a store may answer later).
        let held: TStoredEvent[] | null = [];
        stop = ledger.subscribe((e) => (held ? held.push(e) : take(e)));
        Promise.resolve(ledger.replay(take, { tenantId, afterTenantSeq: afterSeq })).then(() => {
          for (const e of held!) take(e);
          held = null;
        }, reject);
      }),
    close: async () => {},
  };
}

/** The same, over REST: a real HTTP server on a loopback port and plain fetch / EventSource clients. */
export async function httpDoor(ledger: LedgerDoorApi): Promise<LedgerDoor> {
  const app = createApp({ routes: [createLedgerRoutes(ledger)] });
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve(info.port));
  });
  const base = `http://127.0.0.1:${port}`;
  const answer = async <T>(res: Response): Promise<T> => {
    const body = (await res.json()) as T & {
      error?: { code: string; message: string; details?: Record<string, unknown> };
    };
    if (!res.ok)
      throw new DoorError(body.error?.code ?? String(res.status), body.error?.message ?? "", body.error?.details ?? {});
    return body;
  };
  const get = <T>(path: string, q: Record<string, unknown>) => {
    const params = new URLSearchParams(
      Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    );
    return fetch(`${base}${path}?${params}`).then((r) => answer<T>(r));
  };
  return {
    append: (req) =>
      fetch(`${base}/v1/ledger/append`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(req),
      }).then((r) => answer<TAppendResponse>(r)),
    query: (req) => get("/v1/ledger/query", req),
    checkpoint: async (t) => {
      try {
        return await get<TCheckpoint>("/v1/ledger/checkpoint", { tenant_id: t });
      } catch (e) {
        // The route says NOT_FOUND where the interface says null: the same fact, each door's way.
        if (e instanceof DoorError && e.code === "NOT_FOUND") return null;
        throw e;
      }
    },
    keys: () => get("/v1/ledger/keys", {}),
    verify: (t) => get("/v1/ledger/verify", { tenant_id: t }),
    streamFrom: (tenantId, afterSeq, count) =>
      new Promise((resolve, reject) => {
        const got: TStoredEvent[] = [];
        const es = new EventSource(
          `${base}/v1/ledger/stream?tenant_id=${encodeURIComponent(tenantId)}&cursor=seq:${afterSeq}`,
        );
        es.addEventListener("ledger.event", (m) => {
          got.push(JSON.parse((m as MessageEvent).data as string) as TStoredEvent);
          if (got.length === count) {
            es.close();
            resolve(got);
          }
        });
        es.onerror = () => {
          if (es.readyState === EventSource.CLOSED) reject(new Error("stream closed"));
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        const s = server as (ServerType & { closeAllConnections?: () => void }) | undefined;
        s?.closeAllConnections?.();
        if (s) s.close(() => resolve());
        else resolve();
      }),
  };
}
