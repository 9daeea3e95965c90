import type { ServerResponse } from "node:http";
import type { Clock } from "../../shared/clock.js";
import { createSseOut, type SseOut } from "../../shared/sse-out.js";
import { createDeltaLog, renderFrame, renderGroups, type DeltaGroup, type DeltaLog } from "./delta-log.js";

const HEARTBEAT_MS = 15_000;

interface Client {
  tenantId: string;
  entityId: string;
  res: ServerResponse;
  /** Bounded writes: a client that falls more than 4 MiB behind is cut and resumes by cursor. */
  out: SseOut;
  /** Highest seq already written to this client (backlog included). */
  sentUpTo: number;
  /** Takes the client out of the fan-out (on close, or when it is cut). */
  detach(): void;
}

export interface SseHub {
  /**
   * Queues one event's (or one tick's) deltas; written to clients once per event-loop turn, or
   * one turn later when a group commit is about to run (then both go in one write).
   */
  publish(tenantId: string, group: DeltaGroup): void;
  /**
   * Takes over a raw Node response: headers, hello, then either the backlog after `cursor` or a
   * CURSOR_TOO_OLD error frame, then `extra` (current presence), then live frames.
   */
  attach(opts: {
    tenantId: string;
    entityId: string;
    res: ServerResponse;
    head: number;
    cursor: number | null;
    hello: Record<string, unknown>;
    extra: string;
  }): void;
  /** Rewrites the tenant's resume log where it carries a deleted message's text (see DeltaLog.redact). */
  redact(tenantId: string, messageId: string, rewrite: (event: string, json: string) => string): void;
  clientCount(): number;
  close(): void;
}

export function createSseHub(deps: {
  clock: Clock;
  logSize?: number;
  heartbeatMs?: number;
  /**
   * True while a group commit is about to run (appends queued for the next turn). The hub then
   * waits that one turn, so both commits reach each connection in one write: a message and the
   * agent's answer that it set off are two writes per connection otherwise, and on loopback the
   * write system call is most of the fan-out's cost.
   */
  commitPending?: () => boolean;
}): SseHub {
  const { clock } = deps;
  const logs = new Map<string, DeltaLog>();
  const clients = new Map<string, Set<Client>>();
  const pending = new Map<string, DeltaGroup[]>();
  let flushScheduled = false;
  let heartbeat: { cancel(): void } | undefined;
  const logOf = (t: string) => {
    let l = logs.get(t);
    if (!l) logs.set(t, (l = createDeltaLog(deps.logSize ?? 10_000)));
    return l;
  };

  const write = (c: Client, chunk: Buffer) => c.out.write(chunk);

  /**
   * Which frames of `groups` a viewer sees, as a string of 0/1 over the frames that have an
   * audience: viewers with the same answer get the same bytes, so each distinct answer is
   * rendered and encoded once, however many people and connections share it.
   */
  function visibility(groups: readonly DeltaGroup[], viewer: string): string {
    let key = "";
    for (const g of groups) for (const f of g.frames) if (f.audience) key += f.audience.has(viewer) ? "1" : "0";
    return key;
  }

  /** Set while a flush waits one turn for a pending commit (it waits once, then goes). */
  let waited = false;

  function flush(): void {
    if (!waited && deps.commitPending?.()) {
      waited = true;
      setImmediate(flush);
      return;
    }
    waited = false;
    flushScheduled = false;
    for (const [tenantId, groups] of pending) {
      const set = clients.get(tenantId);
      if (!set || set.size === 0) continue;
      const lastSeq = groups.reduce((m, g) => (g.seq !== null && g.seq > m ? g.seq : m), 0);
      // Serialize and encode once per audience, not once per connection or per person: every
      // connection whose viewer sees the same frames is written the same Buffer.
      const byViewer = new Map<string, Buffer>();
      const byVisibility = new Map<string, Buffer>();
      const firstSeq = groups.find((g) => g.seq !== null)?.seq ?? Infinity;
      for (const c of set) {
        let chunk: Buffer;
        if (c.sentUpTo < firstSeq) {
          let b = byViewer.get(c.entityId);
          if (!b) {
            const key = visibility(groups, c.entityId);
            b = byVisibility.get(key);
            if (!b) byVisibility.set(key, (b = Buffer.from(renderGroups(groups, c.entityId, c.sentUpTo), "utf8")));
            byViewer.set(c.entityId, b);
          }
          chunk = b;
        } else chunk = Buffer.from(renderGroups(groups, c.entityId, c.sentUpTo), "utf8");
        write(c, chunk);
        if (lastSeq > c.sentUpTo) c.sentUpTo = lastSeq;
      }
    }
    pending.clear();
  }

  function armHeartbeat(): void {
    heartbeat = clock.setTimeout(() => {
      const now = clock.iso();
      for (const [tenantId, set] of clients) {
        const frame = Buffer.from(renderFrame("heartbeat", { tenant_id: tenantId, server_time: now }), "utf8");
        for (const c of set) write(c, frame);
      }
      armHeartbeat();
    }, deps.heartbeatMs ?? HEARTBEAT_MS);
  }
  armHeartbeat();

  return {
    publish(tenantId, group) {
      if (group.frames.length === 0) return;
      if (group.seq !== null) logOf(tenantId).push(group as DeltaGroup & { seq: number });
      let list = pending.get(tenantId);
      if (!list) pending.set(tenantId, (list = []));
      list.push(group);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    attach({ tenantId, entityId, res, head, cursor, hello, extra }) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
        "x-content-type-options": "nosniff",
      });
      res.socket?.setNoDelay(true);
      let set = clients.get(tenantId);
      if (!set) clients.set(tenantId, (set = new Set()));
      const members = set;
      const client: Client = {
        tenantId,
        entityId,
        res,
        out: createSseOut(res, () => client.detach()),
        sentUpTo: head,
        detach() {
          members.delete(client);
          if (members.size === 0 && clients.get(tenantId) === members) clients.delete(tenantId);
        },
      };
      let out = "retry: 2000\n\n";
      if (cursor === null) out += renderFrame("hello", hello, `seq:${head}`);
      else {
        const backlog = logOf(tenantId).since(cursor);
        if (backlog === "too_old") {
          out += renderFrame("hello", hello, `seq:${head}`);
          out += renderFrame("error", {
            tenant_id: tenantId,
            code: "CURSOR_TOO_OLD",
            message: "Resume cursor is no longer available. Please resync.",
            recommended_action: "resync",
          });
        } else {
          // hello names where this stream starts; the backlog's ids carry it forward to head.
          out += renderFrame("hello", hello, `seq:${cursor}`);
          out += renderGroups(backlog, entityId, cursor);
        }
      }
      out += extra;
      res.write(out);
      members.add(client);
      res.on("close", client.detach);
      res.on("error", client.detach);
    },
    redact(tenantId, messageId, rewrite) {
      logs.get(tenantId)?.redact(messageId, rewrite);
    },
    clientCount() {
      let n = 0;
      for (const s of clients.values()) n += s.size;
      return n;
    },
    close() {
      heartbeat?.cancel();
      for (const set of clients.values()) for (const c of set) c.res.end();
      clients.clear();
    },
  };
}
