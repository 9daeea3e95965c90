import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WORKSPACE_CONVERSATION_ID, type TUblEvent } from "../../../contracts/events.js";
import { GATEWAY_SYSTEM_ACTOR, type Core } from "../core.js";

const DEMO_TENANT = "tnt_acme_001";
const DEMO_CONVERSATION = "cnv_9f2a";

export interface DemoInfo {
  tenant_id: string;
  conversation_id: string;
  humans: Array<{ entity_id: string; display_name: string; token: string; signin_url: string }>;
  agents: Array<{ entity_id: string; display_name: string }>;
}

/**
 * Seeds the seed's world on an empty database: Dan (approver, admin), Ana, the agent "Office
 * Scheduler", the conversation cnv_9f2a (Dan + the agent) and a direct chat Dan ↔ Ana.
 * Returns null (and writes nothing) when the ledger already has any tenant.
 */
export async function seedDemo(core: Core): Promise<DemoInfo | null> {
  if (core.ledger.tenants().length > 0) return null;
  const t = DEMO_TENANT;
  const dan = { entity_id: "ent_human_dan", actor_type: "human" as const };
  const ana = { entity_id: "ent_human_ana", actor_type: "human" as const };
  const events: TUblEvent[] = [
    core.event(t, "entity.registered", WORKSPACE_CONVERSATION_ID, GATEWAY_SYSTEM_ACTOR, {
      entity_id: dan.entity_id,
      actor_type: "human",
      display_name: "Dan",
      roles: ["owner", "job_approver", "admin"],
    }),
    core.event(t, "entity.registered", WORKSPACE_CONVERSATION_ID, dan, {
      entity_id: ana.entity_id,
      actor_type: "human",
      display_name: "Ana",
      roles: ["member"],
    }),
    core.event(t, "entity.registered", WORKSPACE_CONVERSATION_ID, dan, {
      entity_id: "ent_agent_scheduler",
      actor_type: "agent",
      display_name: "Office Scheduler",
      roles: ["job_owner"],
      role: "Scheduler",
      capabilities: ["Scheduling", "Calendar invites"],
      allowed_tools: [
        "calendar.create_invite",
        "calendar.record_answer",
        "calendar.move_invite",
        "calendar.cancel_invite",
        "calendar.decline_counter",
        "mail.send",
      ],
    }),
    core.event(t, "conversation.created", DEMO_CONVERSATION, dan, {
      conversation_id: DEMO_CONVERSATION,
      title: "Office Scheduler",
      participants: [{ entity_id: dan.entity_id }, { entity_id: "ent_agent_scheduler" }],
      kind: "direct",
    }),
    core.event(t, "conversation.created", "cnv_dan_ana", dan, {
      conversation_id: "cnv_dan_ana",
      title: "Dan & Ana",
      participants: [{ entity_id: dan.entity_id }, { entity_id: ana.entity_id }],
      kind: "direct",
    }),
  ];
  const tokens: Record<string, string> = {};
  await core.commit(t, events, {
    body: () => null,
    extra: () => {
      tokens.dan = core.tokens.issue({ tenantId: t, entityId: dan.entity_id }, { via: "demo" });
      tokens.ana = core.tokens.issue({ tenantId: t, entityId: ana.entity_id }, { via: "demo" });
    },
  });
  return {
    tenant_id: t,
    conversation_id: DEMO_CONVERSATION,
    humans: [
      { entity_id: dan.entity_id, display_name: "Dan", token: tokens.dan!, signin_url: "" },
      { entity_id: ana.entity_id, display_name: "Ana", token: tokens.ana!, signin_url: "" },
    ],
    agents: [{ entity_id: "ent_agent_scheduler", display_name: "Office Scheduler" }],
  };
}

/**
 * Writes (or, on a later boot, refreshes the links in) DATA_DIR/demo.json. It holds live
 * tokens, so it is readable by the owner only.
 */
export function writeDemoFile(dataDir: string, info: DemoInfo | null, baseUrl: string): DemoInfo | null {
  const path = join(dataDir, "demo.json");
  const demo = info ?? (existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as DemoInfo) : null);
  if (!demo) return null;
  for (const h of demo.humans) h.signin_url = `${baseUrl}/signin?token=${encodeURIComponent(h.token)}`;
  writeFileSync(path, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return demo;
}
