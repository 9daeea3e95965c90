import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TStoredEvent } from "../../contracts/events.js";
import { createScriptedCalendarProvider } from "../../src/office/index.js";
import type { CalDavCalendar } from "../../src/office/calendar/index.js";
import type { ToolErrorCode } from "../../src/office/tools/tool.js";
import { createServer, type LogLineServer } from "../../src/server.js";
import { type Clock, createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";

/**
 * One LogLine process for the job model, in-process: the real server (ledger with the policy
 * pack, Office, gateway projections) over a temporary SQLite database, driven through its HTTP
 * app without a socket, on a clock that moves only when told (its pending timers are visible),
 * with a calendar whose next writes succeed, fail with a chosen code, or never answer. A restart
 * closes the process and opens a new one on the same data directory and the same calendar.
 */

const T = "tnt_acme_001";
export const AGENT = "ent_agent_scheduler";
export const DAN = "ent_human_dan";
export const ANA = "ent_human_ana";
export const BEA = "ent_human_bea";
/** Dan's direct chat with the agent (the demo's), where work handed to him lands. */
export const DAN_CHAT = "cnv_9f2a";

export type CalendarMode = "ok" | "hang" | Exclude<ToolErrorCode, "CANCELLED">;

/** The organizer's calendar: it outlives LogLine's restarts, as a real one does. */
function modelCalendar() {
  const store = createScriptedCalendarProvider(["ok"]);
  let mode: CalendarMode = "ok";
  /** Calls not answered yet, by the process that made them: each one's way to time out. */
  let hanging: Array<() => void> = [];
  const calendar: CalDavCalendar = {
    ...store,
    async put(uid, ics) {
      if (mode === "hang") {
        // As a CalDAV client's own deadline ends a call the server never answers.
        return new Promise<never>((_, reject) => {
          hanging.push(() => void createScriptedCalendarProvider(["PROVIDER_TIMEOUT"]).put(uid, ics).catch(reject));
        });
      }
      if (mode !== "ok") return createScriptedCalendarProvider([mode]).put(uid, ics);
      return store.put(uid, ics);
    },
  };
  return {
    calendar,
    setMode: (m: CalendarMode) => void (mode = m),
    get hanging() {
      return hanging.length;
    },
    /** The calls' deadline passes: each ends with PROVIDER_TIMEOUT. */
    timeOut() {
      const due = hanging;
      hanging = [];
      for (const f of due) f();
    },
    /** The process that made the hanging calls is gone. */
    forgetHanging: () => void (hanging = []),
  };
}

/** A manual clock whose pending timers (and when each is due) can be read. */
function watchedClock() {
  const manual = createManualClock(Date.parse(DEFAULT_INSTANT));
  const pending = new Map<number, number>();
  let next = 0;
  const clock: Clock = {
    now: manual.now,
    iso: manual.iso,
    setTimeout(fn, ms) {
      const id = next++;
      pending.set(id, manual.now() + Math.max(0, ms));
      const h = manual.setTimeout(() => {
        pending.delete(id);
        fn();
      }, ms);
      return {
        cancel() {
          pending.delete(id);
          h.cancel();
        },
      };
    },
  };
  return { clock, advance: (ms: number) => manual.advance(ms), dueTimes: () => [...pending.values()] };
}

interface Res {
  status: number;
  body: any;
}

export interface ModelWorld {
  server: LogLineServer;
  clock: ReturnType<typeof watchedClock>;
  cal: ReturnType<typeof modelCalendar>;
  tokens: Record<string, string>;
  group: string;
  /** What the server logged at error level, with its message. */
  errors: Array<{ msg: string; obj: unknown }>;
  req(method: "GET" | "POST" | "PUT", path: string, who: string, body?: unknown): Promise<Res>;
  /** Waits until Office has nothing left to do but calls that never answer. */
  settle(): Promise<void>;
  events(jobId?: string): TStoredEvent[];
  restart(): Promise<void>;
  cleanup(): Promise<void>;
}

let keys = 0;

/** The job model's MCP server over stdio (note, look, fail, crash, hang, slow), with a short call timeout. */
const flakyServer = {
  name: "flaky",
  transport: "stdio" as const,
  command: process.execPath,
  args: [resolve("test/office/mcp/fixtures/flaky-server.mjs")],
  env: {},
  timeoutMs: 400,
};

/** The MCP tools an agent may use in the model, and how (auto: at once; approve: proposed first). */
export const MCP_TOOLS = ["flaky.note", "flaky.look", "flaky.fail", "flaky.crash", "flaky.hang", "flaky.slow"] as const;

export async function openModelWorld(opts: { mcp?: boolean } = {}): Promise<ModelWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), "job-model-"));
  const clock = watchedClock();
  const cal = modelCalendar();
  const errors: ModelWorld["errors"] = [];
  const logger = { info() {}, warn() {}, error: (obj: unknown, msg = "") => void errors.push({ msg, obj }) };
  const boot = () =>
    createServer({
      dataDir,
      demo: true,
      clock: clock.clock,
      logger,
      ledgerSync: "normal",
      calendarProvider: cal.calendar,
      retrySchedule: [0, 10_000, 60_000, 300_000],
      ...(opts.mcp ? { connectors: { mcpServers: [flakyServer] } } : {}),
    });
  /** MCP servers connect in the background: wait for them (a crashed one is started again). */
  const connected = async (s: LogLineServer) => {
    for (let i = 0; opts.mcp && i < 1500 && !s.office.mcpStatus().every((x) => x.state === "connected"); i++)
      await new Promise((r) => setTimeout(r, 10));
  };
  const world: ModelWorld = {
    server: await boot(),
    clock,
    cal,
    tokens: {},
    group: "",
    errors,
    async req(method, path, who, body) {
      const token = world.tokens[who];
      if (!token) throw new Error(`no token for ${who}`);
      const r = await world.server.app.request(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          ...(method !== "GET" ? { "idempotency-key": `model-${++keys}` } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
    async settle() {
      await connected(world.server);
      const office = world.server.office;
      let quiet = 0;
      let head = -1;
      let done = false;
      const idle = office.idle().then(() => void (done = true));
      // A call that never answers keeps Office busy forever: then wait until the ledger is still.
      for (let i = 0; i < 2000 && !done; i++) {
        await new Promise((r) => setTimeout(r, 2));
        if (cal.hanging === 0) continue;
        const now = world.events().length;
        quiet = now === head ? quiet + 1 : 0;
        head = now;
        if (quiet < 5) continue;
        if (office.inboxPending() === 0) return;
        // A click waits for the job the call holds: the calendar client's deadline ends the call.
        cal.timeOut();
        quiet = 0;
      }
      // Office that never gets idle (work that loops or waits forever) fails the step, saying so.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("Office was still busy 10 s after the step")), 10_000);
      });
      try {
        await Promise.race([idle, stuck]);
      } finally {
        clearTimeout(timer);
      }
    },
    events(jobId) {
      const out: TStoredEvent[] = [];
      let after: string | undefined;
      for (;;) {
        const page = world.server.ledger.query({
          tenant_id: T,
          limit: 1000,
          ...(jobId ? { job_id: jobId } : {}),
          ...(after ? { after_cursor: after } : {}),
        });
        out.push(...(page.events as unknown as TStoredEvent[]));
        if (!page.next_cursor || page.events.length < 1000) break;
        after = page.next_cursor;
      }
      return out;
    },
    async restart() {
      await world.server.close();
      cal.forgetHanging();
      world.server = await boot();
      await world.settle();
    },
    async cleanup() {
      await world.server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const demo = world.server.demo!;
  world.tokens[DAN] = demo.humans.find((h) => h.entity_id === DAN)!.token;
  world.tokens[ANA] = demo.humans.find((h) => h.entity_id === ANA)!.token;
  // Bea, a member who neither asks nor approves, registered by Dan (an admin).
  await world.server.ledger.append({
    tenant_id: T,
    events: [
      {
        event_id: "evt_model_bea",
        event_type: "entity.registered",
        ts: clock.clock.iso(),
        tenant_id: T,
        trace_id: "trc_model_setup",
        conversation_id: "cnv_workspace",
        actor: { entity_id: DAN, actor_type: "human" },
        payload: { entity_id: BEA, actor_type: "human", display_name: "Bea", roles: ["member"] },
      },
    ],
  });
  world.tokens[BEA] = world.server.gateway.tokens.issue({ tenantId: T, entityId: BEA }, { via: "demo" });
  const made = await world.req("POST", "/v1/conversations", DAN, {
    title: "Team",
    participants: [{ entity_id: DAN }, { entity_id: ANA }, { entity_id: BEA }, { entity_id: AGENT }],
  });
  if (made.status !== 202) throw new Error(`group not created: ${JSON.stringify(made.body)}`);
  world.group = made.body.conversation_id;
  if (opts.mcp) {
    await connected(world.server);
    const modes = await world.req("PUT", `/v1/agents/${AGENT}/tools`, DAN, {
      tools: MCP_TOOLS.map((name) => ({ name, mode: name === "flaky.note" ? "approve" : "auto" })),
    });
    if (modes.status !== 200) throw new Error(`tool modes not set: ${JSON.stringify(modes.body)}`);
  }
  await world.settle();
  return world;
}
