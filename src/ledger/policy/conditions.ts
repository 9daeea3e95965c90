import { fieldPath, isPresent } from "./paths.js";
import { jobIdOf, type RuleContext } from "./rule.js";

/**
 * The condition language of `allow_if` (and of `require_if`'s `if`). An object's keys are
 * AND-ed; `any_of` / `all_of` / `not` combine. Field tests: `{field, eq | ne | in | present}`.
 * Actor tests read the fold: `actor_has_role`, `actor_is_job_owner`,
 * `actor_is_job_owner_or_system`, `actor_type_in`, `actor_tool_allowed` (path of a tool name:
 * in the actor's `allowed_tools`, or its tool mode is auto or approve), `actor_tool_auto` (the
 * actor's mode for that tool is auto), `job_approved` (a person approved the event's job),
 * `actor_is_field` (the actor is the entity a path names), `actor_is_job_requester` (the person
 * whose message started the event's job), `field_is_job_owner` (a path names the job's current
 * owner), `field_is_entity` / `field_is_human` (a path names a registered entity / person).
 * Conversation tests read the event's conversation: `actor_is_conversation_creator`,
 * `actor_is_entity_at` (path: the actor is the entity named there), `member_at` (path: that
 * entity is a member now), `registered_at` (path: that entity is registered in the tenant),
 * `conversation_public` (true: the conversation is a public channel; false: it is not).
 */
export interface Condition {
  test(ctx: RuleContext): boolean;
  /** Human wording for refusal messages (paths and constants only). */
  readonly text: string;
  /** True when the condition reads the fold (so it cannot run before the schema gate). */
  readonly usesFold: boolean;
}

const FIELD_OPS = ["eq", "ne", "in", "present"] as const;

export function compileCondition(spec: unknown, where = "condition"): Condition {
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) throw new Error(`${where}: must be an object`);
  const s = spec as Record<string, unknown>;
  const parts: Condition[] = [];
  const keys = new Set(Object.keys(s));
  keys.delete("note");

  if (keys.has("field")) {
    keys.delete("field");
    const path = fieldPath(String(s.field));
    const ops = FIELD_OPS.filter((o) => keys.has(o));
    if (ops.length !== 1) throw new Error(`${where}: a field test needs exactly one of ${FIELD_OPS.join("/")}`);
    const op = ops[0] as (typeof FIELD_OPS)[number];
    keys.delete(op);
    const arg = s[op];
    if (op === "eq")
      parts.push({
        test: (c) => path.get(c.event) === arg,
        text: `${path.path} is ${JSON.stringify(arg)}`,
        usesFold: false,
      });
    else if (op === "ne")
      parts.push({
        test: (c) => path.get(c.event) !== arg,
        text: `${path.path} is not ${JSON.stringify(arg)}`,
        usesFold: false,
      });
    else if (op === "in") {
      if (!Array.isArray(arg)) throw new Error(`${where}: "in" needs an array`);
      const set = new Set(arg);
      parts.push({
        test: (c) => set.has(path.get(c.event)),
        text: `${path.path} is one of ${arg.join(", ")}`,
        usesFold: false,
      });
    } else {
      const want = arg !== false;
      parts.push({
        test: (c) => isPresent(path.get(c.event)) === want,
        text: `${path.path} is ${want ? "present" : "absent"}`,
        usesFold: false,
      });
    }
  }
  if (keys.has("actor_has_role")) {
    keys.delete("actor_has_role");
    const role = String(s.actor_has_role);
    parts.push({
      test: (c) => (c.actorId ? (c.fold.entity(c.tenantId, c.actorId)?.roles.includes(role) ?? false) : false),
      text: `the actor has role ${role}`,
      usesFold: true,
    });
  }
  if (keys.has("actor_is_job_owner")) {
    keys.delete("actor_is_job_owner");
    parts.push({ test: isJobOwner, text: "the actor owns the job", usesFold: true });
  }
  if (keys.has("actor_is_job_owner_or_system")) {
    keys.delete("actor_is_job_owner_or_system");
    parts.push({
      test: (c) => c.actorType === "system" || isJobOwner(c),
      text: "the actor owns the job or is a system actor",
      usesFold: true,
    });
  }
  if (keys.has("actor_type_in")) {
    keys.delete("actor_type_in");
    const list = s.actor_type_in;
    if (!Array.isArray(list)) throw new Error(`${where}: actor_type_in needs an array`);
    const set = new Set(list.map(String));
    parts.push({
      test: (c) => set.has(String(c.actorType)),
      text: `the actor is ${[...set].join(" or ")}`,
      usesFold: false,
    });
  }
  if (keys.has("actor_tool_allowed")) {
    keys.delete("actor_tool_allowed");
    const path = fieldPath(String(s.actor_tool_allowed));
    parts.push({
      test: (c) => {
        const tool = path.get(c.event);
        const actor = c.actorId ? c.fold.entity(c.tenantId, c.actorId) : undefined;
        if (typeof tool !== "string" || !actor) return false;
        const mode = actor.tool_modes?.get(tool);
        return (
          mode === "auto" ||
          mode === "approve" ||
          (mode === undefined && (actor.allowed_tools?.includes(tool) ?? false))
        );
      },
      text: `${path.path} is one of the actor's allowed tools`,
      usesFold: true,
    });
  }
  if (keys.has("actor_tool_auto")) {
    keys.delete("actor_tool_auto");
    const path = fieldPath(String(s.actor_tool_auto));
    parts.push({
      test: (c) => {
        const tool = path.get(c.event);
        return (
          typeof tool === "string" &&
          !!c.actorId &&
          c.fold.entity(c.tenantId, c.actorId)?.tool_modes?.get(tool) === "auto"
        );
      },
      text: `${path.path} runs without approval for the actor (mode auto)`,
      usesFold: true,
    });
  }
  if (keys.has("job_approved")) {
    keys.delete("job_approved");
    const want = s.job_approved !== false;
    parts.push({
      test: (c) => {
        const jobId = jobIdOf(c.event);
        return (jobId ? (c.fold.job(c.tenantId, jobId)?.approved ?? false) : false) === want;
      },
      text: want ? "a person approved the job" : "nobody approved the job",
      usesFold: true,
    });
  }
  if (keys.has("actor_is_field")) {
    keys.delete("actor_is_field");
    const path = fieldPath(String(s.actor_is_field));
    parts.push({
      test: (c) => !!c.actorId && path.get(c.event) === c.actorId,
      text: `the actor is ${path.path}`,
      usesFold: false,
    });
  }
  if (keys.has("actor_is_job_requester")) {
    keys.delete("actor_is_job_requester");
    parts.push({
      test: (c) => {
        const jobId = jobIdOf(c.event);
        return !!jobId && !!c.actorId && c.fold.job(c.tenantId, jobId)?.requested_by === c.actorId;
      },
      text: "the actor requested the job",
      usesFold: true,
    });
  }
  if (keys.has("field_is_job_owner")) {
    keys.delete("field_is_job_owner");
    const path = fieldPath(String(s.field_is_job_owner));
    parts.push({
      test: (c) => {
        const jobId = jobIdOf(c.event);
        const v = path.get(c.event);
        return !!jobId && typeof v === "string" && c.fold.job(c.tenantId, jobId)?.owner_entity_id === v;
      },
      text: `${path.path} is the job's owner`,
      usesFold: true,
    });
  }
  if (keys.has("field_is_entity")) {
    keys.delete("field_is_entity");
    const path = fieldPath(String(s.field_is_entity));
    parts.push({
      test: (c) => {
        const v = path.get(c.event);
        return typeof v === "string" && c.fold.entity(c.tenantId, v) !== undefined;
      },
      text: `${path.path} is a registered entity`,
      usesFold: true,
    });
  }
  if (keys.has("field_is_human")) {
    keys.delete("field_is_human");
    const path = fieldPath(String(s.field_is_human));
    parts.push({
      test: (c) => {
        const v = path.get(c.event);
        return typeof v === "string" && c.fold.entity(c.tenantId, v)?.actor_type === "human";
      },
      text: `${path.path} is a registered person`,
      usesFold: true,
    });
  }
  if (keys.has("actor_is_conversation_creator")) {
    keys.delete("actor_is_conversation_creator");
    parts.push({
      test: (c) =>
        !!c.actorId && c.fold.conversation(c.tenantId, String(c.event.conversation_id))?.created_by === c.actorId,
      text: "the actor created the conversation",
      usesFold: true,
    });
  }
  if (keys.has("actor_is_entity_at")) {
    keys.delete("actor_is_entity_at");
    const path = fieldPath(String(s.actor_is_entity_at));
    parts.push({
      test: (c) => !!c.actorId && path.get(c.event) === c.actorId,
      text: `the actor is ${path.path}`,
      usesFold: false,
    });
  }
  if (keys.has("member_at")) {
    keys.delete("member_at");
    const path = fieldPath(String(s.member_at));
    parts.push({
      test: (c) => {
        const id = path.get(c.event);
        return typeof id === "string" && c.fold.isMember(c.tenantId, String(c.event.conversation_id), id);
      },
      text: `${path.path} is a member of the conversation`,
      usesFold: true,
    });
  }
  if (keys.has("registered_at")) {
    keys.delete("registered_at");
    const path = fieldPath(String(s.registered_at));
    parts.push({
      test: (c) => {
        const id = path.get(c.event);
        return typeof id === "string" && c.fold.entity(c.tenantId, id) !== undefined;
      },
      text: `${path.path} is a person or agent of the workspace`,
      usesFold: true,
    });
  }
  if (keys.has("conversation_public")) {
    keys.delete("conversation_public");
    const want = s.conversation_public !== false;
    parts.push({
      test: (c) => (c.fold.conversation(c.tenantId, String(c.event.conversation_id))?.public ?? false) === want,
      text: want ? "the conversation is a public channel" : "the conversation is not a public channel",
      usesFold: true,
    });
  }
  for (const combinator of ["any_of", "all_of"] as const) {
    if (!keys.has(combinator)) continue;
    keys.delete(combinator);
    const list = s[combinator];
    if (!Array.isArray(list) || list.length === 0) throw new Error(`${where}: ${combinator} needs a non-empty array`);
    const subs = list.map((x, i) => compileCondition(x, `${where}.${combinator}[${i}]`));
    const any = combinator === "any_of";
    parts.push({
      test: any ? (c) => subs.some((x) => x.test(c)) : (c) => subs.every((x) => x.test(c)),
      text:
        subs.length === 1 ? (subs[0] as Condition).text : `(${subs.map((x) => x.text).join(any ? " or " : " and ")})`,
      usesFold: subs.some((x) => x.usesFold),
    });
  }
  if (keys.has("not")) {
    keys.delete("not");
    const sub = compileCondition(s.not, `${where}.not`);
    parts.push({ test: (c) => !sub.test(c), text: `not ${sub.text}`, usesFold: sub.usesFold });
  }
  if (keys.size) throw new Error(`${where}: unknown condition key(s) ${[...keys].join(", ")}`);
  if (parts.length === 0) throw new Error(`${where}: empty condition`);
  if (parts.length === 1) return parts[0] as Condition;
  return {
    test: (c) => parts.every((p) => p.test(c)),
    text: parts.map((p) => p.text).join(" and "),
    usesFold: parts.some((p) => p.usesFold),
  };
}

function isJobOwner(c: RuleContext): boolean {
  const jobId = jobIdOf(c.event);
  if (!jobId || !c.actorId) return false;
  return c.fold.job(c.tenantId, jobId)?.owner_entity_id === c.actorId;
}
