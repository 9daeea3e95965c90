import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The narrator (src/office/narrator.ts, its one entry, and src/office/narrator/) is the only place
 * card words are made. "Card words" are the texts of a job card's payload — title, summary,
 * status line, blockers, steps, buttons (label, confirm, prompt), forms (label, placeholder,
 * hint, options, errors), the proposed job (goal, inputs, outputs, constraints, SLA, plan), the
 * outcome and next actions — and the agent's chat lines about a job that the decider writes.
 * Office's words come from the message catalogs (locales/<lang>/office-*.json), so the checks
 * below are on catalog keys and on the card payload fields themselves.
 */

const SRC = new URL("../../src/", import.meta.url).pathname;
const where = (f: string) => f.slice(f.indexOf("src/"));

/** Every .ts file under a folder of src/. */
function sources(dir: string): string[] {
  const root = join(SRC, dir);
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(root, f));
}

const isNarrator = (name: string) => name === "src/office/narrator.ts" || name.startsWith("src/office/narrator/");

/** Every Office catalog key (English and Portuguese have the same keys). */
const KEYS: string[] = (() => {
  const dir = new URL("../../locales/en/", import.meta.url).pathname;
  return readdirSync(dir)
    .filter((f) => f.startsWith("office-"))
    .flatMap((f) => Object.keys(JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, string>));
})();

/**
 * A catalog key named in source: a quoted key, or the fixed start of a template key
 * (`office.change.title.${kind}`) that some key begins with.
 */
function catalogKeys(text: string): string[] {
  return catalogUses(text).map((u) => u.key);
}

/** Each use of a catalog key, with whether it is the fixed start of a template (which names every key it begins). */
function catalogUses(text: string): Array<{ key: string; at: number; template: boolean }> {
  const found: Array<{ key: string; at: number; template: boolean }> = [];
  for (const m of text.matchAll(/["'`](office\.[\w.]*)(\$\{|["'`])/g)) {
    const key = m[1]!;
    const template = m[2] === "${";
    if (template ? KEYS.some((k) => k.startsWith(key)) : KEYS.includes(key))
      found.push({ key, at: m.index!, template });
  }
  return found;
}

/** The use names `key`: the key itself, or a template that can become it. */
const names = (u: { key: string; template: boolean }, key: string) =>
  u.template ? key.startsWith(u.key) : u.key === key;

/**
 * Office files that speak only in chat or in an email, never on a card, and the catalog keys
 * each may use. Anything else outside the narrator that looks up an Office key is making words
 * that belong to it.
 */
const CHAT_AND_MAIL: Record<string, { what: string; keys: string[] }> = {
  "src/office/views/why.ts": { what: "the answer to “why?”, a line per recorded event", keys: ["office.why."] },
  "src/office/intake/people-commands.ts": {
    what: "the replies to “hand this over to …” and “why?” in chat",
    keys: ["office.handOver.", "office.why.noJob", "office.why.noSuchJob", "office.why.stateName."],
  },
  "src/office/mcp/commands.ts": {
    what: "the replies to /tools and /run",
    keys: ["office.mcp.tools.", "office.mcp.run.", "office.mcp.mode."],
  },
  "src/office/intake/meeting-change-chat.ts": {
    what: "the replies to “move/cancel the call …”",
    keys: ["office.change.chat."],
  },
  "src/office/intake/ingest.ts": {
    what: "the agent's chat replies to a message",
    keys: ["office.ingest.", "office.more.handToToken"],
  },
  "src/office/planner/rules.ts": {
    what: "the rules planner's chat replies (greetings, questions)",
    keys: [
      "office.planner.leaveIt",
      "office.planner.greeting",
      "office.planner.welcome",
      "office.planner.whoAmI",
      "office.planner.vagueHelp",
      "office.planner.scheduleThat",
      "office.planner.onIt.",
      "office.planner.goodQuestion",
      "office.planner.noted",
    ],
  },
  "src/office/mail/job-mail.ts": {
    what: "the invitation email itself",
    keys: [
      "office.invite.and",
      "office.invite.subject",
      "office.invite.invited",
      "office.invite.when",
      "office.invite.join",
      "office.invite.where",
      "office.invite.attached",
      "office.change.mail.",
    ],
  },
  "src/office/assist/assist-rules.ts": { what: "suggestions for the job panel", keys: ["office.assist."] },
  "src/office/calendar/meeting-reminders.ts": {
    what: "the reminder message before a meeting",
    keys: ["office.reminder.text", "office.reminder.now"],
  },
  "src/office/tools/meeting-rooms.ts": {
    what: "the names of the meeting places, which the invite tool records too",
    keys: ["office.meeting."],
  },
};

/**
 * The words that say something happened, and the record each is made from. Only the narrator's
 * outcome words (src/office/narrator/outcomes.ts) use these keys, each in a function whose first
 * parameter is that record.
 */
const CLAIMS: Array<{ keys: string[]; record: string }> = [
  {
    keys: [
      "office.invite.facts",
      "office.invite.short",
      "office.invite.shortInCalendar",
      "office.invite.calendar.added",
      "office.invite.calendar.already",
    ],
    record: "CreateInviteOutput",
  },
  {
    keys: [
      "office.change.moved",
      "office.change.moved.sent",
      "office.change.cancelled",
      "office.change.cancelled.sent",
      "office.change.kept",
      "office.change.kept.sent",
      "office.change.calendar.moved",
      "office.change.calendar.removed",
    ],
    record: "ChangeInviteOutput",
  },
  { keys: ["office.mail.sent"], record: "MailFacts" },
  {
    keys: ["office.reply.accepted", "office.reply.declined", "office.reply.tentative", "office.reply.counter"],
    record: "TJobReplyReceivedPayload",
  },
  { keys: ["office.reply.calendar.marked"], record: "AnswerCalendar" },
  {
    keys: ["office.mcp.answered.text", "office.mcp.answered.types", "office.mcp.answered.nothing"],
    record: "ToolAnswer",
  },
  { keys: ["office.handOver.card"], record: "HandedOver" },
  { keys: ["office.decide.cancelled"], record: "CancelClick" },
  { keys: ["office.step.handoff.marked"], record: "notes" },
  { keys: ["office.change.earlier"], record: "TFinishedCard" },
];

describe("who makes a card's words", () => {
  it("no Office file outside the narrator looks up an Office catalog key, but for chat and email lines", () => {
    const found: string[] = [];
    for (const file of sources("office")) {
      const name = where(file);
      if (isNarrator(name)) continue;
      const allowed = CHAT_AND_MAIL[name]?.keys ?? [];
      for (const key of catalogKeys(readFileSync(file, "utf8")))
        if (!allowed.some((a) => key === a || key.startsWith(a.endsWith(".") ? a : `${a}.`)))
          found.push(`${name}: ${key}`);
    }
    expect(found).toEqual([]);
  });

  it("no Office file outside the narrator writes a card's word field as literal text", () => {
    // The fields of card payloads that people read; outside the narrator each is a value the
    // narrator returned (or a recorded fact), never text written in place.
    const literal =
      /(?<![.\w])(title|summary|status_line|blockers|label|prompt_text|placeholder|hint|goal|sla_hint|description|constraints|plan_hint|failure_reason|body|question|text)\s*:\s*\[?\s*["'`]/g;
    // Files that build cards or proposals: they import the narrator's builders.
    const builders = sources("office").filter(
      (f) => !isNarrator(where(f)) && /from "\.{1,2}\/(?:\.\.\/)?narrator\.js"/.test(readFileSync(f, "utf8")),
    );
    expect(builders.map(where)).toContain("src/office/jobs/decide.ts");
    const found: string[] = [];
    for (const file of builders)
      for (const m of readFileSync(file, "utf8").matchAll(literal)) found.push(`${where(file)}: ${m[1]}`);
    expect(found).toEqual([]);
  });

  it("a claim word (booked, sent, moved, answered, handed over, cancelled …) is made only from the record that proves it", () => {
    const outcomes = readFileSync(join(SRC, "office/narrator/outcomes.ts"), "utf8");
    const misplaced: string[] = [];
    for (const file of [...sources("office"), ...sources("gateway")]) {
      const name = where(file);
      if (name === "src/office/narrator/outcomes.ts") continue;
      for (const u of catalogUses(readFileSync(file, "utf8")))
        if (CLAIMS.some((c) => c.keys.some((k) => names(u, k)))) misplaced.push(`${name}: ${u.key}`);
    }
    expect(misplaced).toEqual([]);
    // Each claim key sits in a function (or a helper of one) whose first parameter is its record.
    const functions = [...outcomes.matchAll(/^(?:export )?(?:function (\w+)\(|const (\w+) = \()([^)]*)/gm)].map(
      (m) => ({ at: m.index!, name: (m[1] ?? m[2])!, first: m[3]!.split(",")[0]! }),
    );
    for (const claim of CLAIMS)
      for (const key of claim.keys) {
        const at = catalogUses(outcomes)
          .filter((u) => names(u, key))
          .map((u) => u.at);
        expect(at.length, `${key} is worded in outcomes.ts`).toBeGreaterThan(0);
        for (const i of at) {
          const fn = functions.filter((f) => f.at < i).at(-1)!;
          expect(fn.first, `${key} in ${fn.name}(…) must be made from ${claim.record}`).toContain(claim.record);
        }
      }
  });
});
