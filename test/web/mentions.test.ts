import { describe, expect, it } from "vitest";
// @ts-expect-error -- web/ is plain JS checked by its own jsconfig; its JSDoc types are restated below.
import * as web from "../../web/mentions.js";

type Candidate = { entity_id: string; name: string; agent: boolean; member: boolean };
type Entity = { entity_id: string; display_name: string; actor_type?: "human" | "agent"; kind?: string };
type Conv = { participant_entity_ids: string[] };
const { absentAgents, findTrigger, matchCandidates, mayAddMembers, mentionCandidates, mentionsIn, splitMentions } =
  web as {
    findTrigger(value: string, caret: number): { trigger: "#" | "@"; query: string; start: number } | null;
    mentionCandidates(conv: Conv | undefined, entities: Record<string, Entity>, me: string | undefined): Candidate[];
    matchCandidates(all: Candidate[], query: string, max?: number): Candidate[];
    mentionsIn(text: string, picked: Array<{ entity_id: string; name: string }>, candidates: Candidate[]): string[];
    absentAgents(ids: string[], candidates: Candidate[]): Candidate[];
    mayAddMembers(me: { entity_id: string } | null, conv: Conv | undefined, entities: Record<string, Entity>): boolean;
    splitMentions(text: string, names: string[]): Array<{ text: string; mention?: true }>;
  };

/** The composer's mention logic (web/mentions.js): triggers, candidates, what is sent, the offer. */
const entities = {
  ent_dan: { entity_id: "ent_dan", display_name: "Dan", actor_type: "human" as const },
  ent_ana: { entity_id: "ent_ana", display_name: "Ana", actor_type: "human" as const },
  ent_anabela: { entity_id: "ent_anabela", display_name: "Anabela", actor_type: "human" as const },
  ent_sched: { entity_id: "ent_sched", display_name: "Office Scheduler", actor_type: "agent" as const },
  ent_bill: { entity_id: "ent_bill", display_name: "Billing Agent", actor_type: "agent" as const },
  ct_maria: { entity_id: "ct_maria", display_name: "Maria", kind: "contact" },
};
const conv = {
  conversation_id: "cnv_1",
  title: "Team",
  participant_entity_ids: ["ent_dan", "ent_ana", "ent_bill"],
  unread_count: 0,
};

describe("findTrigger", () => {
  it("finds the # or @ word the caret is in, only at a word's start", () => {
    expect(findTrigger("hi @of", 6)).toEqual({ trigger: "@", query: "of", start: 3 });
    expect(findTrigger("@", 1)).toEqual({ trigger: "@", query: "", start: 0 });
    expect(findTrigger("see #Pla today", 8)).toEqual({ trigger: "#", query: "Pla", start: 4 });
    expect(findTrigger("mail dan@acme.com", 17)).toBeNull();
    expect(findTrigger("@of now", 7)).toBeNull();
  });
});

describe("candidates and matching", () => {
  const all = mentionCandidates(conv, entities, "ent_dan");
  it("offers the conversation's people and agents but not me, then the workspace's other agents, never contacts", () => {
    expect(all.map((c) => [c.entity_id, c.member])).toEqual([
      ["ent_ana", true],
      ["ent_bill", true],
      ["ent_sched", false],
    ]);
  });
  it("matches the start of any word of a name", () => {
    expect(matchCandidates(all, "of").map((c) => c.name)).toEqual(["Office Scheduler"]);
    expect(matchCandidates(all, "SCH").map((c) => c.name)).toEqual(["Office Scheduler"]);
    expect(matchCandidates(all, "").length).toBe(3);
    expect(matchCandidates(all, "zz")).toEqual([]);
  });
});

describe("mentionsIn", () => {
  const all = mentionCandidates(
    { ...conv, participant_entity_ids: ["ent_dan", "ent_ana", "ent_anabela", "ent_bill"] },
    entities,
    "ent_dan",
  );
  it("keeps picked names still in the text, in text order, once each", () => {
    const picked = [
      { entity_id: "ent_bill", name: "Billing Agent" },
      { entity_id: "ent_ana", name: "Ana" },
    ];
    expect(mentionsIn("@Ana and @Billing Agent, @Ana again", picked, all)).toEqual(["ent_ana", "ent_bill"]);
    // A name deleted from the text is no longer a mention; "@Anabela" is not "@Ana".
    expect(mentionsIn("@Anabela, lunch?", picked, all)).toEqual(["ent_anabela"]);
  });
  it("reads typed names: in full, or an agent's first word; never an address", () => {
    expect(mentionsIn("@office scheduler can you", [], all)).toEqual(["ent_sched"]);
    expect(mentionsIn("@Office can you", [], all)).toEqual(["ent_sched"]);
    expect(mentionsIn("write to ana@acme.com", [], all)).toEqual([]);
    expect(mentionsIn("@Officer", [], all)).toEqual([]);
  });
});

describe("the offer to add an agent", () => {
  const all = mentionCandidates(conv, entities, "ent_dan");
  it("names only mentioned agents who are not in the conversation", () => {
    expect(absentAgents(["ent_ana", "ent_bill", "ent_sched"], all).map((c) => c.name)).toEqual(["Office Scheduler"]);
    expect(absentAgents(["ent_ana"], all)).toEqual([]);
  });
  it("offers Add to a person in the conversation, not to someone outside it or to an agent", () => {
    expect(mayAddMembers({ entity_id: "ent_dan" }, conv, entities)).toBe(true);
    expect(mayAddMembers({ entity_id: "ent_anabela" }, conv, entities)).toBe(false);
    expect(mayAddMembers({ entity_id: "ent_bill" }, conv, entities)).toBe(false);
    expect(mayAddMembers(null, conv, entities)).toBe(false);
  });
});

describe("splitMentions", () => {
  it("cuts the mentioned names out for the highlight, longest first", () => {
    expect(splitMentions("@Office Scheduler and @Ana, hi", ["Ana", "Office Scheduler"])).toEqual([
      { text: "@Office Scheduler", mention: true },
      { text: " and " },
      { text: "@Ana", mention: true },
      { text: ", hi" },
    ]);
    expect(splitMentions("no one", [])).toEqual([{ text: "no one" }]);
  });
});
