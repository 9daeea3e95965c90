import { foldJob } from "../../src/office/job-machine.js";
import { click, CONV, DAN, GOLDEN_INPUT, lastCard, T, TRACE, type World } from "./helpers.js";

/** Drives the seed's golden path up to a point; returns the job id. */
export async function proposeGolden(
  w: World,
  text = "Can you schedule a 30-min call with Maria next week?",
): Promise<string> {
  const r = await w.office.ingestMessage({
    tenant_id: T,
    trace_id: TRACE,
    conversation_id: CONV,
    actor_entity_id: DAN,
    body_text: text,
  });
  return r.job_id!;
}

export async function approveGolden(w: World): Promise<string> {
  const jobId = await proposeGolden(w);
  await w.office.jobAction(click(lastCard(w.events(jobId), jobId), "Approve"));
  return jobId;
}

export async function completeGolden(w: World): Promise<string> {
  const jobId = await approveGolden(w);
  await w.office.jobAction(click(lastCard(w.events(jobId), jobId), "Provide info", GOLDEN_INPUT));
  return jobId;
}

export const card = (w: World, jobId: string) => lastCard(w.events(jobId), jobId);
export const types = (w: World, jobId: string) => w.events(jobId).map((e) => e.event_type);
export const stateOf = (w: World, jobId: string) => foldJob(w.events(jobId))?.state;
