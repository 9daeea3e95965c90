import { describe, expect, it } from "vitest";
import * as copy from "../../src/office/narrator.js";
import { planRules } from "../../src/office/planner/rules.js";
import type { PlanFrame } from "../../src/office/planner/planner.js";
import { words } from "../../src/office/speak.js";
import { formatSlot, parseWhen } from "../../src/office/when/index.js";
import type { CreateInviteOutput } from "../../src/office/tools/calendar-create-invite.js";

/** Office's words in both languages: the same facts, Portuguese when the job or person is. */
const pt = words("pt");
const NOW = "2026-11-26T10:00:00.000Z"; // a Thursday
const frame = (text: string, locale?: "pt"): PlanFrame => ({
  tenant_id: "t",
  conversation_id: "c",
  trace_id: "tr",
  now: NOW,
  default_timezone: "Europe/Lisbon",
  agent: { entity_id: "a", display_name: "Office", allowed_tools: ["calendar.create_invite"] },
  sender: { entity_id: "s", display_name: "Dan" },
  text,
  jobs: [],
  ...(locale ? { locale } : {}),
});

describe("the rules planner in Portuguese", () => {
  it("proposes the golden path from Portuguese words, with the date read by the Portuguese parser", () => {
    const d = planRules(frame("Marca uma reunião com a Ana amanhã às 15h", "pt"));
    expect(d).toMatchObject({
      type: "propose_job",
      kind: "schedule_meeting",
      title: "Marcar reunião com Ana",
      slots: { attendee_name: "Ana", title: "Reunião com Ana" },
    });
    if (d.type !== "propose_job") throw new Error("not a proposal");
    expect(d.goal).toBe(
      "Marcar uma reunião com Ana (sexta-feira, 27 de novembro de 2026, 15:00 (Europe/Lisbon)) e enviar um convite",
    );
    const when = parseWhen(d.slots.time_window!, { now: Date.parse(NOW), timezone: "Europe/Lisbon", locale: "pt" });
    expect(when).toMatchObject({
      start_date: "2026-11-27",
      end_date: "2026-11-27",
      from_time: "15:00",
      exact_start: true,
    });

    const call = planRules(frame("agenda uma chamada com o João na sexta às 10:00", "pt"));
    expect(call).toMatchObject({
      type: "propose_job",
      title: "Marcar chamada com João",
      constraints: ["Não enviar email a João antes de aprovar os detalhes"],
    });
    expect(
      parseWhen("agenda uma chamada com o João na sexta às 10:00", {
        now: Date.parse(NOW),
        timezone: "Europe/Lisbon",
        locale: "pt",
      }),
    ).toMatchObject({
      start_date: "2026-11-27",
      from_time: "10:00",
      exact_start: true,
    });
    expect(
      parseWhen("de terça a quinta das 14h às 17h", { now: Date.parse(NOW), timezone: "Europe/Lisbon", locale: "pt" }),
    ).toMatchObject({
      weekdays: [2, 3, 4],
      from_time: "14:00",
      to_time: "17:00",
      exact_start: false,
    });
  });

  it("keeps English exactly, and answers chat in the person's language", () => {
    expect(planRules(frame("Can you schedule a 30-min call with Maria next week?"))).toMatchObject({
      title: "Schedule call with Maria",
      goal: "Schedule a 30-minute call with Maria next week and send an invite",
    });
    expect(planRules(frame("olá", "pt"))).toEqual({
      type: "chat_reply",
      text: expect.stringMatching(/^Olá Dan! Diga-me do que precisa/),
    });
    expect(planRules(frame("thanks"))).toEqual({ type: "chat_reply", text: "You’re welcome." });
    expect(planRules(frame("obrigado", "pt"))).toEqual({ type: "chat_reply", text: "De nada." });
  });
});

describe("narration in Portuguese", () => {
  const out: CreateInviteOutput = {
    scheduled_time: { start: "2026-12-01T15:00:00.000Z", end: "2026-12-01T15:30:00.000Z", timezone: "Europe/Lisbon" },
    meeting: { type: "jitsi" },
    calendar: { written: true, created: true, name: "Equipa" },
  } as CreateInviteOutput;

  it("says dates in Portuguese through Intl and English as before", () => {
    const [a, b] = [Date.parse(out.scheduled_time.start), Date.parse(out.scheduled_time.end)];
    expect(formatSlot(a, b, "Europe/Lisbon", "pt")).toBe(
      "terça-feira, 1 de dezembro de 2026, 15:00–15:30 (Europe/Lisbon)",
    );
    expect(formatSlot(a, b, "Europe/Lisbon")).toBe("Tue 1 Dec 2026, 15:00–15:30 (Europe/Lisbon)");
  });

  it("Formalize → Tracking → Finished lines, waiting-for lines and retries", () => {
    expect(copy.meetingSteps("collect", pt).map((s) => s.label)).toEqual([
      "Recolher detalhes",
      "Criar convite de calendário",
      "Enviar convite",
    ]);
    expect(copy.waitingStatus(["attendee_email", "time_window"], { attendee_name: "Ana Lima" }, pt)).toBe(
      "À espera de: o email de Ana + dias/horas preferidos",
    );
    expect(copy.waitingStatus(["attendee_email", "meeting_url"], {}, pt)).toBe(
      "À espera de: o email do participante + o link de reunião",
    );
    expect(copy.waitingStatus(["attendee_email"], { attendee_name: "Ana Lima" })).toBe("Waiting for: Ana’s email");
    expect(copy.inviteFacts(out, { title: "Reunião com Ana", locale: "pt" }, pt)).toBe(
      "Criei um convite de 30 minutos “Reunião com Ana” para terça-feira, 1 de dezembro de 2026, 15:00–15:30 (Europe/Lisbon) com uma sala Jitsi Meet. Adicionado ao calendário “Equipa”.",
    );
    expect(copy.inviteFacts(out, { title: "Call with Ana" })).toBe(
      "Created a 30-minute invite “Call with Ana” for Tue 1 Dec 2026, 15:00–15:30 (Europe/Lisbon) with a Jitsi Meet room. Added to the calendar “Equipa”.",
    );
    expect(copy.mailFacts({ kind: "sent", to: "a***@acme.pt", response: "250 OK" }, pt)).toBe(
      "Enviado por email para a***@acme.pt; o servidor de correio aceitou-o (250 OK).",
    );
    expect(
      copy.mailFacts(
        { kind: "retrying", to: "x", error: "451 busy", next_at: "2026-12-01T15:05:00Z", timezone: "Europe/Lisbon" },
        pt,
        "pt",
      ),
    ).toBe("Ainda não enviado: 451 busy. Nova tentativa às 15:05.");
    expect(copy.retryStatus("PROVIDER_TIMEOUT", 10_000, pt)).toBe(
      "O fornecedor do calendário não respondeu a tempo. Nova tentativa dentro de ~10 segundos.",
    );
    expect(copy.retryStatus("PROVIDER_TIMEOUT", 300_000)).toBe("Calendar provider timed out. Retrying in ~5 minutes.");
    expect(copy.retryStatus("PROVIDER_TIMEOUT", 90_000)).toBe("Calendar provider timed out. Retrying in ~2 minute.");
  });
});

describe("what happened after an invitee's answer, in words", () => {
  it("says the answer and the calendar's state from the recorded facts, in the job's language", () => {
    const maria = { attendee: { name: "Maria", email_redacted: "m***@example.org" } };
    expect(copy.answerWords({ ...maria, answer: "declined", comment: "travelling" })).toBe(
      "Maria declined: “travelling”",
    );
    expect(copy.answerWords({ ...maria, answer: "accepted" }, pt, "pt")).toBe("Maria aceitou.");
    expect(copy.answerCalendarWords({ kind: "marked", calendar: "Work" })).toBe(" Marked so in the calendar “Work”.");
    // The retry's time is the instant it is due, in the job's zone (15:02 UTC is 15:02 in Lisbon in winter, 16:02 in Madrid).
    const due = { kind: "retrying" as const, error: "Calendar down.", at_ms: Date.parse("2026-11-26T15:02:00.000Z") };
    expect(copy.answerCalendarWords({ ...due, timezone: "Europe/Madrid" })).toBe(
      " Not marked in the calendar yet: Calendar down. Trying again at 16:02 (Europe/Madrid).",
    );
    expect(copy.answerCalendarWords({ ...due, timezone: "Not/AZone" })).toContain("Trying again at 15:02 (UTC).");
    expect(copy.answerCalendarWords({ kind: "none" }, pt)).not.toBe(copy.answerCalendarWords({ kind: "none" }));
  });

  it("a hand-over, a cancel and a moved meeting say who and what, from their records", () => {
    const held = { from_entity_id: "ent_agent", to_entity_id: "ent_bea", by: "ent_dan", at: "2026-01-05T10:00:00Z" };
    expect(copy.handedOverLine(held, "Bea")).toContain("Bea");
    expect(copy.handedOverLine(held, "Bea", pt)).toMatch(/^Passado a Bea/);
    expect(copy.cancelledBy({ action: { type: "job.cancel" }, by: { display_name: "Dan" } })).toContain("Dan");
    expect(copy.earlierVersion({ summary: "Moved to Friday." }, "Thu 10:00", pt)).toBe(
      "Moved to Friday. Antes estava marcada para Thu 10:00.",
    );
    expect(copy.disputedPause("wrong day").status_line).toContain("wrong day");
  });
});

describe("what a tool job's call did, in words", () => {
  it("quotes the recorded answer (cut at 300 characters), or names its kinds of content, or says there was none", () => {
    const long = "x".repeat(301);
    expect(copy.toolAnswered({ text: long, content_types: ["text"] }, "files.read")).toContain(`${"x".repeat(300)}…`);
    expect(copy.toolAnswered({ text: "ok", content_types: ["text"], truncated: true }, "files.read")).toContain("ok…");
    expect(copy.toolAnswered({ text: " ", content_types: ["image"] }, "files.read")).toContain("image");
    expect(copy.toolAnswered({ text: "", content_types: [] }, "files.read")).not.toBe(
      copy.toolAnswered({ text: "", content_types: ["image"] }, "files.read"),
    );
  });

  it("a failure not tried again says why only for a tool that changes things", () => {
    const again = copy.toolFailed("files.write", "Disk full.", false);
    const harmless = copy.toolFailed("files.list", "Disk full.", true);
    expect(again).toContain("Disk full.");
    expect(again.length).toBeGreaterThan(harmless.length);
    expect(copy.toolRetrying("files.list", "Slow.", 10_000)).toContain("10");
  });
});
