import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { click, CONV, DAN, GOLDEN_INPUT, setupWorld, T, type World } from "./helpers.js";
import { approveGolden, card, completeGolden, proposeGolden, stateOf, types } from "./flows.js";

const last = (w: World, jobId: string, n = 1) => types(w, jobId).slice(-n);

describe("every button does something real", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());

  describe("Formalize card", () => {
    it("Reject closes the job and asks in chat what to do instead", async () => {
      const jobId = await proposeGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Reject"));
      const evs = w.events(jobId);
      expect(evs.slice(-2).map((e) => e.event_type)).toEqual(["job.rejected", "message.sent"]);
      expect(evs.at(-2)!.actor).toEqual({ entity_id: DAN, actor_type: "human" });
      expect((evs.at(-1)!.payload as any).body_text).toMatch(/What would you like instead\?/);
      expect(stateOf(w, jobId)).toBe("rejected");
    });

    it("Request changes takes the text and re-proposes an updated card for the same job", async () => {
      const jobId = await proposeGolden(w);
      const before = card(w, jobId);
      await w.office.jobAction(
        click(before, "Request changes", { changes_request: "make it 45 minutes on Zoom, Europe/Lisbon" }),
      );
      expect(last(w, jobId, 3)).toEqual(["job.changes_requested", "job.proposed", "message.sent"]);
      const after = card(w, jobId);
      expect(after.card_id).not.toBe(before.card_id);
      expect(after.job.goal).toMatch(/45-minute/);
      // Zoom is not a service this server talks to: the person's own Zoom link is asked for.
      expect(after.job.inputs_needed.find((i: any) => i.key === "meeting_link")).toMatchObject({
        status: "missing",
        value_preview: "Paste your Zoom link",
      });
      expect(after.job.inputs_needed.find((i: any) => i.key === "timezone")).toMatchObject({
        status: "provided",
        value_preview: "Europe/Lisbon",
      });
      // the replaced card can no longer be approved
      await expect(w.office.jobAction(click(before, "Approve"))).rejects.toMatchObject({ code: "INVALID_PROVENANCE" });
      await w.office.jobAction(click(after, "Approve"));
      expect(card(w, jobId).state).toBe("waiting_input");
    });

    it("Request changes without text is a field error", async () => {
      const jobId = await proposeGolden(w);
      const req = click(card(w, jobId), "Request changes", {});
      expect(() => w.office.checkJobAction(req)).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          details: { fields: { changes_request: expect.any(String) } },
        }),
      );
    });

    it("Ask in chat posts the prefilled question and the agent answers", async () => {
      const jobId = await proposeGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Ask in chat"));
      const [q, a] = w.events(jobId).slice(-2);
      expect(q!.actor.entity_id).toBe(DAN);
      expect((q!.payload as any).body_text).toBe("What should change about this job proposal?");
      expect(a!.actor.actor_type).toBe("agent");
      expect(stateOf(w, jobId)).toBe("proposed");
    });
  });

  describe("Tracking card", () => {
    it("Got it is recorded as the person's acknowledgement", async () => {
      const jobId = await approveGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Got it"));
      const e = w.events(jobId).at(-1)!;
      expect(e.event_type).toBe("job.acknowledged");
      expect(e.actor.entity_id).toBe(DAN);
      expect(e.payload).toMatchObject({ card_id: card(w, jobId).card_id, action: { type: "job.ack" } });
    });

    it("Provide info with a bad email: clear error + a Tracking card that says what is wrong", async () => {
      const jobId = await approveGolden(w);
      const tracking = card(w, jobId);
      const bad = click(tracking, "Provide info", { ...GOLDEN_INPUT, maria_email: "maria-at-acme" });
      expect(() => w.office.checkJobAction(bad)).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
      await expect(w.office.jobAction(bad)).rejects.toMatchObject({
        code: "INVALID_INPUT",
        details: { fields: { maria_email: "That doesn’t look like an email address." } },
      });
      const fix = card(w, jobId);
      expect(fix.card_type).toBe("job.tracking");
      expect(fix.progress.status_line).toMatch(/email/);
      const field = fix.buttons[1].action.input_schema.fields.find((f: any) => f.key === "maria_email");
      expect(field.error).toMatch(/email/);
      expect(stateOf(w, jobId)).toBe("waiting_input");
      await w.office.jobAction(click(fix, "Provide info", GOLDEN_INPUT));
      expect(stateOf(w, jobId)).toBe("completed");
    });

    it("Provide info missing a required field is refused", async () => {
      const jobId = await approveGolden(w);
      const { timezone: _tz, ...partial } = GOLDEN_INPUT;
      await expect(w.office.jobAction(click(card(w, jobId), "Provide info", partial))).rejects.toMatchObject({
        code: "INVALID_INPUT",
        details: { fields: { timezone: "Timezone is required." } },
      });
    });

    it("Dispute pauses, records the reason and asks a clarifying question", async () => {
      const jobId = await approveGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Dispute", { dispute_reason: "Maria is on holiday next week" }));
      const evs = w.events(jobId);
      const d = evs.find((e) => e.event_type === "job.disputed")!;
      expect(d.payload).toMatchObject({ reason_text: "Maria is on holiday next week" });
      expect(evs.at(-1)!.payload).toMatchObject({ kind: "text" });
      await expect(w.office.jobAction(click(card(w, jobId), "Dispute", {}))).rejects.toMatchObject({
        code: "INVALID_INPUT",
      });
    });

    it("a request with every detail skips waiting_input and completes on Approve", async () => {
      const jobId = await proposeGolden(
        w,
        "Schedule a 30-min call with Maria maria@acme.com tomorrow 14:00-17:00 Europe/Lisbon on Zoom https://acme.zoom.us/j/5550142",
      );
      await w.office.jobAction(click(card(w, jobId), "Approve"));
      expect(stateOf(w, jobId)).toBe("completed");
      // The pasted link goes into the invite, and the card names it without repeating it.
      expect(card(w, jobId).outcome.summary).toContain("with the Zoom link you pasted");
    });

    it("Cancel closes the job with a Finished card (cancelled)", async () => {
      const jobId = await approveGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Cancel"));
      expect(last(w, jobId, 3)).toEqual(["job.state_changed", "job.completed", "message.sent"]);
      expect(stateOf(w, jobId)).toBe("cancelled");
      expect(card(w, jobId)).toMatchObject({ card_type: "job.finished", outcome: { result: "cancelled" } });
      await expect(w.office.jobAction(click(card(w, jobId), "Follow-up"))).resolves.toMatchObject({ ok: true });
    });

    it("Ask in chat answers about the job and leaves it as it was", async () => {
      const jobId = await approveGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Ask in chat"));
      expect((w.events(jobId).at(-1)!.payload as any).body_text).toMatch(/waiting for your input/);
    });
  });

  describe("Finished card", () => {
    it("Accept records the acknowledgement", async () => {
      const jobId = await completeGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Accept"));
      expect(w.events(jobId).at(-1)).toMatchObject({ event_type: "job.acknowledged", actor: { entity_id: DAN } });
    });

    it("Dispute records the reason and asks what went wrong", async () => {
      const jobId = await completeGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Dispute", { dispute_reason: "Wrong day" }));
      expect(last(w, jobId, 2)).toEqual(["job.disputed", "message.sent"]);
      expect(stateOf(w, jobId)).toBe("completed");
    });

    it("Follow-up creates a new job linked by parent_job_id", async () => {
      const jobId = await completeGolden(w);
      const r = await w.office.jobAction(click(card(w, jobId), "Follow-up"));
      expect(r.job_id).not.toBe(jobId);
      const child = w.events(r.job_id);
      expect(child[0]).toMatchObject({ event_type: "job.created", payload: { parent_job_id: jobId } });
      const f = card(w, r.job_id!);
      expect(f).toMatchObject({
        card_type: "job.formalize",
        parent_job_id: jobId,
        title: "Schedule follow-up with Maria",
      });
      // the follow-up already knows Maria's address; it asks only for the time
      expect(f.job.inputs_needed.filter((i: any) => i.status === "missing").map((i: any) => i.key)).toEqual([
        "time_window",
      ]);
    });

    it("Ask in chat posts the question", async () => {
      const jobId = await completeGolden(w);
      await w.office.jobAction(click(card(w, jobId), "Ask in chat"));
      expect(last(w, jobId, 2)).toEqual(["message.sent", "message.sent"]);
    });
  });

  describe("refusals", () => {
    it("an action the state does not allow is refused with the FSM's code", async () => {
      const jobId = await completeGolden(w);
      const formalize = w.events(jobId).find((e) => e.event_type === "job.proposed")!.payload as any;
      await expect(w.office.jobAction(click(formalize.proposed_card, "Approve"))).rejects.toMatchObject({
        code: "ILLEGAL_JOB_TRANSITION",
      });
    });

    it("a button that was never offered is refused as INVALID_PROVENANCE", async () => {
      const jobId = await proposeGolden(w);
      const req = { ...click(card(w, jobId), "Approve"), button_id: "btn_forged" };
      expect(() => w.office.checkJobAction(req)).toThrow(expect.objectContaining({ code: "INVALID_PROVENANCE" }));
      await expect(w.office.jobAction(req)).rejects.toMatchObject({ code: "INVALID_PROVENANCE" });
    });

    it("bad request bodies get VALIDATION_ERROR; unknown jobs NOT_FOUND; other conversation refused", async () => {
      await expect(w.office.jobAction({ tenant_id: T } as any)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
      await expect(
        w.office.ingestMessage({
          tenant_id: T,
          trace_id: "t",
          conversation_id: CONV,
          actor_entity_id: DAN,
          body_text: "",
        }),
      ).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
      const jobId = await proposeGolden(w);
      const c = click(card(w, jobId), "Approve");
      await expect(
        w.office.jobAction({ ...c, job_id: "job_nope", action: { type: "job.approve", job_id: "job_nope" } }),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(w.office.jobAction({ ...c, conversation_id: "cnv_other" })).rejects.toMatchObject({
        code: "JOB_CONVERSATION_MISMATCH",
      });
      await expect(
        w.office.ingestMessage({
          tenant_id: T,
          trace_id: "t",
          conversation_id: "cnv_other",
          actor_entity_id: DAN,
          body_text: "hi",
        }),
      ).rejects.toMatchObject({
        code: "NOT_A_MEMBER",
      });
    });
  });
});
