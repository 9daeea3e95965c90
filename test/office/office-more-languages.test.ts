import { describe, expect, it } from "vitest";
import { rulesSuggestions } from "../../src/office/assist/assist-rules.js";
import type { JobView } from "../../src/office/job-machine.js";
import type { McpToolInfo } from "../../src/office/mcp/hub.js";
import { checkRun, toolsReply } from "../../src/office/mcp/commands.js";
import type { EntityProfile } from "../../src/office/views/office-view.js";
import { parseHandOver, parseWhy } from "../../src/office/intake/people-commands.js";
import type { PlanFrame } from "../../src/office/planner/planner.js";
import { planRules } from "../../src/office/planner/rules.js";
import { words } from "../../src/office/speak.js";

/**
 * The phrases Office understands in Portuguese beside English (hand-over, "porquê?", work it
 * declines and the offer's choice read back), and the words of /tools, /run and Assist in the
 * asker's language, English unchanged.
 */
const frame = (text: string, locale?: "pt"): PlanFrame => ({
  tenant_id: "t",
  conversation_id: "c",
  trace_id: "tr",
  now: "2025-12-27T10:15:00.000Z",
  default_timezone: "Europe/Lisbon",
  agent: {
    entity_id: "a",
    display_name: "Office Scheduler",
    role: "Scheduler",
    allowed_tools: ["calendar.create_invite"],
  },
  sender: { entity_id: "h", display_name: "Dan" },
  text,
  jobs: [],
  ...(locale ? { locale } : {}),
});

describe("hand-over and why phrases", () => {
  it.each([
    ["passa este trabalho à Ana", { name: "Ana" }],
    ["entrega isto ao Dan", { name: "Dan" }],
    ["Podes passar o trabalho para a Ana, por favor?", { name: "Ana" }],
    ["passa-o ao João.", { name: "João" }],
    ["entrega o job_01abc à Ana", { job_ref: "job_01abc", name: "Ana" }],
    ["hand this job over to Ana", { name: "Ana" }],
  ])("“%s” is a hand-over", (text, expected) => {
    expect(parseHandOver(text)).toEqual(expected);
  });

  it.each(["Passar a Ana: enviar a fatura 123", "passa a bola", "a Ana passa por cá amanhã", "entrega isto"])(
    "“%s” is not",
    (text) => {
      expect(parseHandOver(text)).toBeUndefined();
    },
  );

  it("“porquê?” and “porque é que fizeste isso?” ask about a job's past; a Portuguese question of another kind does not", () => {
    expect(parseWhy("Porquê?")).toEqual({});
    expect(parseWhy("porque é que fizeste isso?")).toEqual({});
    expect(parseWhy("porquê o job_01abc?")).toEqual({ job_ref: "job_01abc" });
    expect(parseWhy("why did you do that?")).toEqual({});
    expect(parseWhy("porque não marcas para amanhã")).toBeUndefined();
  });
});

describe("work no tool does, in Portuguese", () => {
  it("is declined, and the offer's Portuguese choice comes back as a hand-over", () => {
    expect(planRules(frame("Podes enviar a fatura 123 à ACME, por favor?", "pt"))).toEqual({
      type: "decline_work",
      request: "Enviar a fatura 123 à ACME,",
    });
    expect(planRules(frame("liga ao banco", "pt"))).toEqual({ type: "decline_work", request: "Liga ao banco" });
    const token = words("pt")("office.more.handToToken", { person: "Ana", request: "Liga ao banco" });
    expect(token).toBe("Passar a Ana: Liga ao banco");
    expect(planRules(frame(token, "pt"))).toEqual({ type: "handoff", to_name: "Ana", request: "Liga ao banco" });
    expect(planRules(frame("passa isto a uma pessoa: pagar a renda", "pt"))).toEqual({
      type: "handoff",
      request: "pagar a renda",
    });
    // English keeps its words.
    expect(words("en")("office.more.handToToken", { person: "Dan", request: "Call the bank" })).toBe(
      "Hand it to Dan: Call the bank",
    );
    expect(planRules(frame("Hand it to Dan: Call the bank"))).toEqual({
      type: "handoff",
      to_name: "Dan",
      request: "Call the bank",
    });
  });
});

describe("/tools and /run in the asker's language", () => {
  const tool: McpToolInfo = {
    name: "files.read",
    server: "files",
    tool: "read",
    description: "Reads a file. Returns its text.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    annotations: { readOnlyHint: true },
  };
  const agent = {
    entity_id: "a",
    display_name: "Office",
    actor_type: "agent",
    tool_modes: { "files.read": "auto" },
  } as unknown as EntityProfile;
  const none = { ...agent, tool_modes: {} } as EntityProfile;

  it("lists tools and refuses bad runs in Portuguese, in English unchanged", () => {
    expect(toolsReply(agent, [tool], words("pt"))).toBe(
      "O que consigo fazer com ferramentas:\n• files.read — corre logo. Reads a file.\n  /run files.read path=string",
    );
    expect(toolsReply(agent, [tool])).toBe(
      "What I can do with tools:\n• files.read — runs at once. Reads a file.\n  /run files.read path=string",
    );
    expect(toolsReply(none, [tool], words("pt"))).toMatch(/^Office ainda não tem ferramentas de servidores MCP\./);
    expect(checkRun(agent, [tool], "/run", words("pt"))).toEqual({
      ok: false,
      reply: "Diga qual a ferramenta: /run <tool> key=value … (/tools mostra-as).",
    });
    expect(checkRun(agent, [tool], "/run", words("en"))).toEqual({
      ok: false,
      reply: "Say which tool: /run <tool> key=value … (/tools lists them).",
    });
    expect(checkRun(agent, [tool], "/run files.nope", words("pt"))).toEqual({
      ok: false,
      reply: "Não tenho nenhuma ferramenta chamada files.nope. /tools mostra as que posso usar.",
    });
    expect(checkRun(none, [tool], "/run files.read path=a", words("pt"))).toMatchObject({
      ok: false,
      reply: expect.stringMatching(/^Não tenho autorização para usar files\.read\./),
    });
  });
});

describe("Assist's suggestions in the job's language", () => {
  const job = (locale?: string) =>
    ({
      job_id: "job_1",
      title: "Pagamento urgente",
      goal: "Tratar do pagamento",
      state: "proposed",
      created_at: "2025-12-27T10:15:00.000Z",
      slots: locale ? { locale } : {},
      latest: {},
    }) as unknown as JobView;

  it("words rationales and next moves in Portuguese for a Portuguese job, English otherwise", () => {
    const pt = rulesSuggestions(job("pt"), 0).suggestions as Array<{
      type: string;
      rationale: string;
      payload: Record<string, unknown>;
    }>;
    expect(pt.find((s) => s.type === "set_priority")?.rationale).toBe("O pedido parece urgente");
    expect(pt.find((s) => s.type === "propose_next_action")).toMatchObject({
      rationale: "O que costuma fazer avançar um trabalho neste estado",
      payload: { text: "Reveja a proposta e depois aprove-a ou peça alterações." },
    });
    const en = rulesSuggestions(job(), 0).suggestions as Array<{
      type: string;
      rationale: string;
      payload: Record<string, unknown>;
    }>;
    expect(en.find((s) => s.type === "propose_next_action")?.payload.text).toBe(
      "Review the proposal, then approve it or request changes.",
    );
    expect(en.find((s) => s.type === "set_priority")?.rationale).toBe("The request sounds time critical");
  });
});
