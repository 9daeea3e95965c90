import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createOfficeRoutes } from "../../src/office/index.js";
import { AGENT, click, CONV, DAN, seedDirectory, setupWorld, T, TRACE, type World } from "./helpers.js";
import { card, completeGolden, proposeGolden } from "./flows.js";

describe("dignity trajectory, affordances, REST", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());

  it("trajectory lists jobs with outcomes, approvals and disputes (who, when, why) and open commitments", async () => {
    const done = await completeGolden(w);
    await w.office.jobAction(click(card(w, done), "Dispute", { dispute_reason: "Wrong time zone" }));
    const open = await proposeGolden(w, "Book a 45 minute demo with Peter on Zoom");
    const t = await w.office.trajectory(T, AGENT);
    expect(t).toMatchObject({
      entity_id: AGENT,
      display_name: "Office Scheduler",
      role: "Scheduler",
      allowed_tools: ["calendar.create_invite"],
      capabilities: ["scheduling"],
    });
    const j = t.jobs.find((x) => x.job_id === done)!;
    expect(j).toMatchObject({
      state: "completed",
      outcome: "completed",
      approvals: [{ by: DAN, action: "approved" }],
      disputes: [{ by: DAN, reason: "Wrong time zone" }],
    });
    expect(j.approvals[0]!.at).toMatch(/^2025-12-27T/);
    expect(t.open_commitments).toEqual([{ job_id: open, title: "Schedule demo with Peter", state: "proposed" }]);
    await expect(w.office.trajectory(T, DAN)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(w.office.trajectory("tnt_other", AGENT)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("affordances: an agent's allowed tools; a person's actions by role", async () => {
    const a = await w.office.affordances({ tenant_id: T, entity_id: AGENT });
    expect(a.tools.map((x) => x.name)).toEqual(["calendar.create_invite"]);
    expect(a.tools[0]).toMatchObject({ version: "v2", side_effects: true });
    const h = await w.office.affordances({ tenant_id: T, entity_id: DAN });
    expect(h.actions).toContain("job.approve");
    expect(h.tools).toEqual([]);
    await expect(w.office.affordances({ tenant_id: T, entity_id: "ent_nobody" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("which agent answers: none → silent; several → the one named, else the first to join", async () => {
    await seedDirectory(
      w.ledger,
      [
        { id: "ent_agent_billing", name: "Billing Agent" },
        { id: AGENT, name: "Office Scheduler", allowed_tools: ["calendar.create_invite"] },
      ],
      "cnv_group",
    );
    const named = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: "cnv_group",
      actor_entity_id: DAN,
      body_text: "Office Scheduler, schedule a call with Ana tomorrow at 3pm",
    });
    expect(w.events().find((e) => e.event_id === named.emitted_event_ids[0])!.actor.entity_id).toBe(AGENT);
    const first = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: "cnv_group",
      actor_entity_id: DAN,
      body_text: "hello",
    });
    expect(w.events().find((e) => e.event_id === first.emitted_event_ids[0])!.actor.entity_id).toBe(
      "ent_agent_billing",
    );
    await w.ledger.append({
      tenant_id: T,
      events: [
        {
          event_id: "evt_solo_conv",
          event_type: "conversation.created",
          ts: "2025-12-27T10:00:00.000Z",
          tenant_id: T,
          trace_id: "trc_setup",
          conversation_id: "cnv_solo",
          actor: { entity_id: "system_policy_agent", actor_type: "system" },
          payload: { conversation_id: "cnv_solo", title: "Notes", participants: [{ entity_id: DAN }] },
        },
      ],
    });
    const silent = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: "cnv_solo",
      actor_entity_id: DAN,
      body_text: "schedule a call with Ana",
    });
    expect(silent.emitted_event_ids).toEqual([]);
  });

  it("REST: thin routes with the standard error shape", async () => {
    const app = createApp({ routes: [createOfficeRoutes(w.office)] });
    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
    const ok = await post("/v1/office/ingest_message", {
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as any;
    expect(body).toMatchObject({ ok: true, notes: "Proposed a job card" });
    expect(body.emitted_event_ids).toHaveLength(3);

    const bad = await post("/v1/office/ingest_message", { tenant_id: T });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) });
    expect((await post("/v1/office/ingest_message", "{nope")).status).toBe(400);
    const extra = await post("/v1/office/ingest_message", {
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "hi",
      evil: 1,
    });
    expect(extra.status).toBe(400);

    const c = card(w, body.job_id);
    const forged = await post("/v1/office/job_action", { ...click(c, "Approve"), button_id: "btn_forged" });
    expect(forged.status).toBe(422);
    expect(((await forged.json()) as any).error.code).toBe("INVALID_PROVENANCE");
    const approve = await post("/v1/office/job_action", click(c, "Approve"));
    expect(approve.status).toBe(200);
    const again = await post("/v1/office/job_action", click(c, "Approve"));
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).error.code).toBe("ILLEGAL_JOB_TRANSITION");
    const badInput = await post(
      "/v1/office/job_action",
      click(card(w, body.job_id), "Provide info", {
        maria_email: "nope",
        time_window: "Tue 10-12",
        timezone: "Europe/Lisbon",
        meeting_link: "zoom",
      }),
    );
    expect(badInput.status).toBe(400);
    expect(((await badInput.json()) as any).error).toMatchObject({
      code: "INVALID_INPUT",
      details: { fields: { maria_email: expect.any(String) } },
    });

    const aff = await app.request(`/v1/office/affordances?tenant_id=${T}&entity_id=${AGENT}`);
    expect(aff.status).toBe(200);
    expect((await app.request(`/v1/office/affordances?tenant_id=${T}`)).status).toBe(400);
    const traj = await app.request(`/v1/agents/${AGENT}/trajectory?tenant_id=${T}`);
    expect(((await traj.json()) as any).open_commitments).toHaveLength(1);
    expect((await app.request(`/v1/agents/${AGENT}/trajectory`)).status).toBe(400);
    expect((await app.request(`/v1/agents/ent_nobody/trajectory?tenant_id=${T}`)).status).toBe(404);
  });
});
