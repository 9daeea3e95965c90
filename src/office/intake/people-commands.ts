import type { HandOverRequest } from "../office-api.js";
import type { TIngestMessageRequest } from "../../../contracts/office.js";
import { AppError } from "../../shared/errors.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";
import type { Draft, EmitContext } from "../emitter.js";
import { isOpenState } from "../../job/transitions.js";
import type { JobSummary } from "../views/office-view.js";
import { explainJob, whyReply } from "../views/why.js";
import type { HostLedgerApi } from "../../ledger/index.js";
import { pickLocale } from "../../shared/i18n.js";
import { type Locale, words } from "../speak.js";

/**
 * Two chat phrases answered from the ledger whatever the planner: "hand this job over to Ana"
 * writes a `job.handed_over` as the person who asked (the policy pack decides whether they may),
 * and "why did you do that?" tells the job's causal chain. Replies are built from what was
 * written or read — a hand-over the ledger refused is reported as not done, with its reason.
 * Both are understood in English and Portuguese ("passa este trabalho à Ana", "porquê?") and
 * answered in the asker's language (their profile's, else the workspace default).
 */

const HAND_OVER =
  /^(?:please\s+|can you\s+|could you\s+)*hand\s+(?:this|that|the|it)?\s*(?:job\s*)?(?:#?(job_[A-Za-z0-9_-]+)\s+)?over\s+to\s+(\p{L}[\p{L}'’-]*)(?:\s*,?\s*please)?\s*[.!?]?$/iu;
const WHY =
  /^(?:and\s+|but\s+|so\s+)?(?:why\s*\?*|why\s+(?:did|have|was|were|is|are)\s+(?:you|this|that|it|the job)\b.*|why\b.*#?job_[A-Za-z0-9_-]+.*|what\s+made\s+you\b.*)$/i;
/** "passa este trabalho à Ana", "entrega isto ao Dan", "podes passar o job_… para a Ana?" */
const HAND_OVER_PT =
  /^(?:por\s+favor,?\s+|podes\s+|pode\s+)*(?:passa|passar|entrega|entregar|transfere|transferir)(?:-o|-a|-lo|-la)?\s+(?:(?:este|esse|o|a|esta|essa)\s+)?(?:trabalho|tarefa|job|isto|isso)?\s*(?:#?(job_[A-Za-z0-9_-]+)\s+)?(?:para\s+(?:[ao]\s+)?|à\s+|ao\s+|a\s+)(\p{L}[\p{L}'’-]*)(?:\s*,?\s*por\s+favor)?\s*[.!?]?$/iu;
const WHY_PT =
  /^(?:e\s+|mas\s+|então\s+)?(?:porqu[êe]\s*\?*|por\s*qu[êe]\s*\?*|porque\s+(?:[ée]\s+que\s+)?(?:fizeste|fez|fizeram|foi|fiz|aconteceu|isto|isso)\b.*|porqu[êe](?![\p{L}]).*#?job_[A-Za-z0-9_-]+.*|o\s+que\s+(?:te|o|a)\s+levou\b.*)$/iu;
const JOB_REF = /#?(job_[A-Za-z0-9_-]+)/;

export function parseHandOver(text: string): { job_ref?: string; name: string } | undefined {
  // In Portuguese the name is what tells "passa isto à Ana" from "passa a bola": it is written with a capital.
  const pt = HAND_OVER_PT.exec(text.trim());
  const m = HAND_OVER.exec(text.trim()) ?? (pt && /^\p{Lu}/u.test(pt[2]!) ? pt : null);
  return m ? { ...(m[1] ? { job_ref: m[1] } : {}), name: m[2]! } : undefined;
}

/** "why did you do that?", "why?", "why #job_…" — a question about a job's past, not a request. */
export function parseWhy(text: string): { job_ref?: string } | undefined {
  const t = text.trim();
  if (!(WHY.test(t) || WHY_PT.test(t)) || t.length > 200) return undefined;
  const ref = JOB_REF.exec(t)?.[1];
  return ref ? { job_ref: ref } : {};
}

interface Deps {
  ledger: HostLedgerApi;
  context: ContextBuilder;
  emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>;
  say: (agentId: string, text: string, jobId?: string) => Draft;
  /** The language of people whose profile names none. */
  defaultLocale?: Locale | undefined;
  /** Hands a job over: the same step as the Hand over button (hand-over, line and card in one batch). */
  handOver: (r: HandOverRequest) => Promise<{ ids: string[] }>;
}

/** The job a phrase means: the one it names (in this conversation), else the latest open one, else the latest. */
function targetJob(
  context: ContextBuilder,
  req: TIngestMessageRequest,
  ref: string | undefined,
  openOnly: boolean,
): JobSummary | undefined {
  const jobs = context.conversationJobs(req.tenant_id, req.conversation_id);
  if (ref) return jobs.find((j) => j.job_id === ref);
  const open = jobs.filter((j) => isOpenState(j.state) && !j.handed_over);
  const pick = (list: JobSummary[]) =>
    list.reduce<JobSummary | undefined>((a, j) => (!a || j.updated_at >= a.updated_at ? j : a), undefined);
  return pick(open) ?? (openOnly ? undefined : pick(jobs));
}

export function createPeopleCommands(deps: Deps) {
  const { context } = deps;
  const speak = (sender: EntityProfile) => words(pickLocale(sender.locale, deps.defaultLocale));

  async function handOver(
    req: TIngestMessageRequest,
    sender: EntityProfile,
    agent: EntityProfile,
    ec: EmitContext,
    cmd: { job_ref?: string; name: string },
  ) {
    const t = speak(sender);
    const reply = async (text: string, jobId?: string) => ({
      ids: await deps.emit(ec, [deps.say(agent.entity_id, text, jobId)]),
      notes: "Hand-over not done",
    });
    const job = targetJob(context, req, cmd.job_ref, true);
    if (!job) return reply(t(cmd.job_ref ? "office.handOver.noSuchJob" : "office.handOver.noOpenJob"));
    if (!isOpenState(job.state))
      return reply(
        t("office.handOver.notOpen", { title: job.title, state: t(`office.why.stateName.${job.state}`) }),
        job.job_id,
      );
    const wanted = cmd.name.toLowerCase();
    const person = context
      .participants(req.tenant_id, req.conversation_id)
      .map((id) => context.profile(req.tenant_id, id))
      .find(
        (p) =>
          p?.actor_type === "human" &&
          (p.display_name.toLowerCase() === wanted || p.display_name.toLowerCase().split(/\s+/)[0] === wanted),
      );
    if (!person) return reply(t("office.handOver.nobody", { name: cmd.name, title: job.title }), job.job_id);
    if (person.entity_id === job.owner_entity_id)
      return reply(t("office.handOver.already", { title: job.title, person: person.display_name }), job.job_id);
    let written: string[];
    try {
      written = (
        await deps.handOver({
          tenant_id: req.tenant_id,
          trace_id: ec.trace_id,
          job_id: job.job_id,
          actor_entity_id: sender.entity_id,
          to_entity_id: person.entity_id,
        })
      ).ids;
    } catch (e) {
      // The refusal (who may hand over, the job's state) is the answer: nothing happened.
      if (e instanceof AppError)
        return reply(
          t("office.handOver.refused", { title: job.title, person: person.display_name, reason: e.message }),
          job.job_id,
        );
      throw e;
    }
    const ids = await deps.emit({ ...ec, causation_id: written[0]! }, [
      deps.say(
        agent.entity_id,
        t("office.handOver.done", { title: job.title, person: person.display_name }),
        job.job_id,
      ),
    ]);
    return { ids: [...written, ...ids], notes: "Handed over", job_id: job.job_id };
  }

  async function why(
    req: TIngestMessageRequest,
    sender: EntityProfile,
    agent: EntityProfile,
    ec: EmitContext,
    cmd: { job_ref?: string },
  ) {
    const t = speak(sender);
    const job = targetJob(context, req, cmd.job_ref, false);
    if (!job) {
      const text = t(cmd.job_ref ? "office.why.noSuchJob" : "office.why.noJob");
      return { ids: await deps.emit(ec, [deps.say(agent.entity_id, text)]), notes: "Nothing to explain" };
    }
    const chain = await explainJob(
      { ledger: deps.ledger, name: (tenant, id) => context.profile(tenant, id)?.display_name ?? id },
      req.tenant_id,
      job.job_id,
      t,
    );
    return {
      ids: await deps.emit(ec, [deps.say(agent.entity_id, whyReply(chain, t), job.job_id)]),
      notes: "Explained a job",
      job_id: job.job_id,
    };
  }

  return { handOver, why };
}
