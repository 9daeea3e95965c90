import { describe, expect, it } from "vitest";
import type { TCardButton } from "../../contracts/cards.js";
import type { TJobState } from "../../contracts/primitives.js";
import { offers, summarize, type JobFacts } from "../../src/job/summarize.js";

const button = (id: string, type: string): TCardButton =>
  ({ button_id: id, label: id, style: "secondary", action: { type, job_id: "job_1" } }) as unknown as TCardButton;
const formalize = {
  card_id: "card_f",
  card_type: "job.formalize",
  buttons: [
    button("approve", "job.approve"),
    button("reject", "job.reject"),
    button("changes", "job.request_changes"),
    button("ask", "chat.ask"),
  ],
};
const tracking = {
  card_id: "card_t",
  card_type: "job.tracking",
  buttons: [
    button("info", "job.provide_input"),
    button("ack", "job.ack"),
    button("cancel", "job.cancel"),
    button("ask", "chat.ask"),
  ],
};
const finished = {
  card_id: "card_x",
  card_type: "job.finished",
  buttons: [button("ack", "job.ack"), button("follow", "job.follow_up"), button("ask", "chat.ask")],
};

const approver = { entity_id: "ent_dan", roles: ["job_approver"] };
const admin = { entity_id: "ent_ana", roles: ["admin"] };
const member = { entity_id: "ent_bo", roles: ["member"] };
const ids = (job: JobFacts, viewer: typeof member) => summarize(job, viewer).actions.map((b) => b.button_id);

describe("summarize: what a viewer may do with a job now", () => {
  it("gives Approve and Reject to approvers and admins only", () => {
    const job = { state: "proposed" as TJobState, last_card: formalize };
    expect(ids(job, approver)).toEqual(["approve", "reject", "changes", "ask"]);
    expect(ids(job, admin)).toEqual(["approve", "reject", "changes", "ask"]);
    expect(ids(job, member)).toEqual(["changes", "ask"]);
    expect(summarize(job, member).card_id).toBe("card_f");
  });

  it("offers nothing from a card the job's state has overtaken", () => {
    // Rejected with no later card: the proposal's buttons no longer act.
    expect(ids({ state: "rejected", last_card: formalize }, approver)).toEqual([]);
    expect(ids({ state: "completed", last_card: tracking }, approver)).toEqual([]);
    expect(ids({ state: "in_progress", last_card: finished }, approver)).toEqual([]);
  });

  it("keeps only the buttons the state accepts", () => {
    expect(ids({ state: "waiting_input", last_card: tracking }, member)).toEqual(["info", "ack", "cancel", "ask"]);
    expect(ids({ state: "completed", last_card: finished }, member)).toEqual(["ack", "follow", "ask"]);
  });

  it("leaves only Ask in chat once a person holds the job", () => {
    const job = { state: "waiting_input" as TJobState, last_card: tracking, handed_over: { to_entity_id: "ent_ana" } };
    expect(ids(job, approver)).toEqual(["ask"]);
    expect(ids(job, admin)).toEqual(["ask"]);
  });

  it("has nothing to offer before the first card", () => {
    expect(summarize({ state: "draft" }, approver)).toEqual({ actions: [] });
  });

  it("offers a button only on the job's latest card", () => {
    const job = { state: "waiting_input" as TJobState, last_card: tracking };
    expect(offers(job, member, "card_t", "cancel")).toBe(true);
    expect(offers(job, member, "card_old", "cancel")).toBe(false);
    expect(offers(job, member, "card_t", "approve")).toBe(false);
  });
});
