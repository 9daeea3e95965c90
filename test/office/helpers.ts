import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TStoredEvent } from "../../contracts/events.js";
import { createLedger, type LedgerApi } from "../../src/ledger/index.js";
import { createFold } from "../../src/ledger/fold.js";
import { createPolicyEngine, loadPolicyPack } from "../../src/ledger/policy/index.js";
import { createManualClock } from "../../src/shared/clock.js";
import { openDatabase, type Db } from "../../src/shared/db.js";
import { createOfficeRuntime, type OfficeRuntime } from "../../src/office/office.js";
import type { CreateOfficeDeps } from "../../src/office/office-deps.js";

export const T = "tnt_acme_001";
export const CONV = "cnv_9f2a";
export const DAN = "ent_human_dan";
export const AGENT = "ent_agent_scheduler";
export const TRACE = "trc_20251227_001";

/** Ids without long digit runs, so a phone-number scan of the ledger never trips on them. */
function letterIds() {
  let n = 0;
  return (prefix: string) => {
    n++;
    let s = "";
    let x = n;
    do {
      s = String.fromCharCode(97 + (x % 26)) + s;
      x = Math.floor(x / 26);
    } while (x > 0);
    return `${prefix}_${s.padStart(6, "a")}`;
  };
}

export interface World {
  dir: string;
  db: Db;
  ledger: LedgerApi;
  clock: ReturnType<typeof createManualClock>;
  ids: (p: string) => string;
  office: OfficeRuntime;
  newOffice(extra?: Partial<CreateOfficeDeps>): OfficeRuntime;
  events(jobId?: string): TStoredEvent[];
  cleanup(): void;
}

export async function setupWorld(
  opts: {
    office?: Partial<CreateOfficeDeps>;
    agents?: Array<{ id: string; name: string; allowed_tools?: string[] }>;
    seed?: boolean;
  } = {},
): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "office-"));
  const db = openDatabase({ path: join(dir, "logline.db") });
  const manual = createManualClock();
  const manual_advance = manual.advance.bind(manual);
  // Advancing the clock also waits for the work each timer starts (a retry appends twice) before
  // the next timer fires: a day goes by in as many steps as timers fall due in it.
  let current: { idle(): Promise<void> } | undefined;
  const clock = Object.assign(manual, {
    advance: (ms: number) => manual_advance(ms, async () => current?.idle()),
  });
  const ids = letterIds();
  // The real Policy Pack v1: Office's events must pass membership, provenance, FSM, authority, PII.
  const ledger = createLedger({
    db,
    dataDir: dir,
    clock,
    ids,
    engine: createPolicyEngine(loadPolicyPack()),
    fold: createFold(),
  }).api;
  const agents = opts.agents ?? [{ id: AGENT, name: "Office Scheduler", allowed_tools: ["calendar.create_invite"] }];
  if (opts.seed !== false) await seedDirectory(ledger, agents);
  const newOffice = (extra: Partial<CreateOfficeDeps> = {}) => {
    const o = createOfficeRuntime({
      ledger,
      db,
      dataDir: dir,
      clock,
      ids,
      retrySchedule: [0, 10_000, 60_000, 300_000],
      ...opts.office,
      ...extra,
    });
    current = o;
    return o;
  };
  const office = newOffice();
  return {
    dir,
    db,
    ledger,
    clock,
    ids,
    office,
    newOffice,
    events(jobId) {
      const out: TStoredEvent[] = [];
      let after: string | undefined;
      for (;;) {
        const page = ledger.query({
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
    cleanup() {
      office.stop();
      ledger.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function seedDirectory(
  ledger: LedgerApi,
  agents: Array<{ id: string; name: string; allowed_tools?: string[] }>,
  conversation = CONV,
) {
  const base = {
    ts: "2025-12-27T10:00:00.000Z",
    tenant_id: T,
    trace_id: "trc_setup",
    conversation_id: "cnv_workspace",
  };
  const sys = { entity_id: "system_policy_agent", actor_type: "system" as const };
  let n = 0;
  const ev = (event_type: string, payload: Record<string, unknown>, conversation_id = "cnv_workspace") => ({
    ...base,
    conversation_id,
    event_id: `evt_setup_${conversation}_${String.fromCharCode(97 + n++)}`,
    event_type,
    actor: sys,
    payload,
  });
  await ledger.append({
    tenant_id: T,
    events: [
      ev("entity.registered", {
        entity_id: DAN,
        actor_type: "human",
        display_name: "Dan",
        roles: ["job_approver", "member"],
      }),
      ...agents.map((a) =>
        ev("entity.registered", {
          entity_id: a.id,
          actor_type: "agent",
          display_name: a.name,
          roles: ["job_owner", "member"],
          role: "Scheduler",
          capabilities: ["scheduling"],
          allowed_tools: a.allowed_tools ?? [],
          memory_scope: "tenant",
        }),
      ),
      ev(
        "conversation.created",
        {
          conversation_id: conversation,
          title: "Maria",
          participants: [{ entity_id: DAN }, ...agents.map((a) => ({ entity_id: a.id }))],
        },
        conversation,
      ),
    ],
  });
}

/** Finds the button with a label on the latest card of a job. */
export function lastCard(events: TStoredEvent[], jobId: string) {
  const cards = events
    .filter((e) => e.event_type === "message.sent" && e.job_id === jobId && e.payload.kind === "card")
    .map((e) => (e.payload as { card: any }).card);
  return cards.at(-1);
}

export function click(card: any, label: string, input?: Record<string, string | number | boolean>) {
  const b = card.buttons.find((x: any) => x.label === label);
  if (!b)
    throw new Error(`no button ${label} on ${card.card_type}: ${card.buttons.map((x: any) => x.label).join(", ")}`);
  return {
    tenant_id: T,
    trace_id: TRACE,
    conversation_id: card.conversation_id,
    job_id: card.job_id,
    actor_entity_id: DAN,
    card_id: card.card_id,
    button_id: b.button_id,
    action: b.action,
    ...(input ? { input } : {}),
  };
}

export const GOLDEN_INPUT = {
  maria_email: "maria@acme.com",
  time_window: "Tue–Thu, 14:00–17:00",
  timezone: "Europe/Lisbon",
  meeting_link: "jitsi",
};
