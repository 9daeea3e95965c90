import { describe, expect, it } from "vitest";
import { planRules } from "../../src/office/planner/rules.js";
import type { PlanFrame } from "../../src/office/planner/planner.js";
import { describeWhen, parseWhen } from "../../src/office/when/index.js";

const frame = (text: string, extra: Partial<PlanFrame> = {}): PlanFrame => ({
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
  ...extra,
});

type Row = [
  string,
  Partial<{
    duration_minutes: number;
    attendee_name: string;
    attendee_email: string;
    timezone: string;
    meeting_link: string;
    link_label: string;
    day_hint: string;
  }>,
  string?,
];

/**
 * Message → slots, and the window its time words resolve to (asked Sat 27 Dec 2025, 10:15 UTC,
 * in the sender's zone unless the words name one). A week alone stays a hint: the days and
 * times are asked for.
 */
const SCHEDULING: Row[] = [
  [
    "Can you schedule a 30-min call with Maria next week?",
    { duration_minutes: 30, attendee_name: "Maria", day_hint: "next week" },
  ],
  [
    "Schedule a meeting with João tomorrow afternoon",
    { attendee_name: "João" },
    "Sun 28 Dec 2025, 13:00–17:00 (Europe/Lisbon)",
  ],
  [
    "Book a 1h demo with Acme's Peter on Zoom",
    { duration_minutes: 60, attendee_name: "Peter", meeting_link: "link", link_label: "Zoom" },
  ],
  [
    "please set up a half an hour sync with Ana Tue–Thu 14:00–17:00 Europe/Lisbon",
    { duration_minutes: 30, attendee_name: "Ana", timezone: "Europe/Lisbon" },
    "Sat 27 Dec 2025 – Fri 9 Jan 2026 (Tue–Thu), 14:00–17:00 (Europe/Lisbon)",
  ],
  [
    "Arrange a call with Bob at 3pm EST",
    { attendee_name: "Bob", timezone: "America/New_York" },
    "Sat 27 Dec 2025, 15:00 (America/New_York)",
  ],
  [
    "Could you book a 45 minute interview with Sarah Connor on Friday via Google Meet?",
    { duration_minutes: 45, attendee_name: "Sarah Connor", meeting_link: "link", link_label: "Google Meet" },
    "Fri 2 Jan 2026, 09:00–17:00 (Europe/Lisbon)",
  ],
  [
    "Find a time to meet with Luis next week, 20 minutes",
    { duration_minutes: 20, attendee_name: "Luis", day_hint: "next week" },
  ],
  [
    "schedule a catch-up with Marta, maria.lima@example.org, Monday morning",
    { attendee_name: "Marta", attendee_email: "maria.lima@example.org" },
    "Mon 29 Dec 2025, 09:00–12:00 (Europe/Lisbon)",
  ],
  [
    "Set up a 15 min check-in with Tom on Teams",
    { duration_minutes: 15, attendee_name: "Tom", meeting_link: "link", link_label: "Teams" },
  ],
  [
    "Book a call with Priya 2-4pm on Wednesday IST",
    { attendee_name: "Priya", timezone: "Asia/Kolkata" },
    "Wed 31 Dec 2025, 14:00–16:00 (Asia/Kolkata)",
  ],
  [
    "Can we have a 1:1 with Kenji next week on Zoom?",
    { attendee_name: "Kenji", meeting_link: "link", link_label: "Zoom", day_hint: "next week" },
  ],
  [
    "schedule a 90-minute review with Olga on 2026-01-05",
    { duration_minutes: 90, attendee_name: "Olga" },
    "Mon 5 Jan 2026, 09:00–17:00 (Europe/Lisbon)",
  ],
  [
    "Please arrange a demo with Carla this week, by phone",
    { attendee_name: "Carla", meeting_link: "phone", day_hint: "this week" },
  ],
  [
    "I need a meeting with Hans tomorrow at 10:30 CET",
    { attendee_name: "Hans", timezone: "Europe/Paris" },
    "Sun 28 Dec 2025, 10:30 (Europe/Paris)",
  ],
  [
    "book a 2 hours session with Eva Mon-Wed 9:00-12:00",
    { duration_minutes: 120, attendee_name: "Eva" },
    "Sat 27 Dec 2025 – Fri 9 Jan 2026 (Mon–Wed), 09:00–12:00 (Europe/Lisbon)",
  ],
  [
    "Set up a call with Nadia, 30 mins, weekdays after 4pm",
    { duration_minutes: 30, attendee_name: "Nadia" },
    "Sat 27 Dec 2025 – Fri 9 Jan 2026 (Mon–Fri), 16:00–18:00 (Europe/Lisbon)",
  ],
  [
    "schedule a stand-up with Raj every... well, just tomorrow morning on Google Meet",
    { attendee_name: "Raj", meeting_link: "link", link_label: "Google Meet" },
    "Sun 28 Dec 2025, 09:00–12:00 (Europe/Lisbon)",
  ],
  [
    "Could you set up an in-person meeting with Mr Silva on Thursday at 11am Lisbon time?",
    { attendee_name: "Mr Silva", timezone: "Europe/Lisbon", meeting_link: "in_person" },
    "Thu 1 Jan 2026, 11:00 (Europe/Lisbon)",
  ],
  [
    "Please book an hour with Ines to review the budget, next week",
    { duration_minutes: 60, attendee_name: "Ines", day_hint: "next week" },
  ],
  [
    "arrange a quick 10-minute call with Leo today PST",
    { duration_minutes: 10, attendee_name: "Leo", timezone: "America/Los_Angeles" },
    "Sat 27 Dec 2025, 09:00–17:00 (America/Los_Angeles)",
  ],
  [
    "Schedule an appointment with Dr Costa next Tuesday afternoon",
    { attendee_name: "Dr Costa" },
    "Tue 30 Dec 2025, 13:00–17:00 (Europe/Lisbon)",
  ],
  [
    "send an invite for a 25 min sync with Zoe on Friday",
    { duration_minutes: 25, attendee_name: "Zoe" },
    "Fri 2 Jan 2026, 09:00–17:00 (Europe/Lisbon)",
  ],
  [
    "Schedule a 30-min call with maria@acme.com on January 5 at 3pm Lisbon time",
    { duration_minutes: 30, attendee_name: "Maria", attendee_email: "maria@acme.com", timezone: "Europe/Lisbon" },
    "Mon 5 Jan 2026, 15:00 (Europe/Lisbon)",
  ],
  // A meeting verb with a person and a time is scheduling, with or without "schedule" in front.
  ["call with Maria tomorrow at 17:30", { attendee_name: "Maria" }, "Sun 28 Dec 2025, 17:30 (Europe/Lisbon)"],
  ["meet with Ana on Monday at 10am", { attendee_name: "Ana" }, "Mon 29 Dec 2025, 10:00 (Europe/Lisbon)"],
  ["catch up with Pedro tomorrow at 9:00", { attendee_name: "Pedro" }, "Sun 28 Dec 2025, 09:00 (Europe/Lisbon)"],
  ["sync with Lena on Friday at 14:00", { attendee_name: "Lena" }, "Fri 2 Jan 2026, 14:00 (Europe/Lisbon)"],
  ["I'd like to talk with Rui tomorrow at 16:00", { attendee_name: "Rui" }, "Sun 28 Dec 2025, 16:00 (Europe/Lisbon)"],
];

const NON_WORK: string[] = [
  "hi",
  "Hello there!",
  "thanks a lot",
  "good morning",
  "who are you?",
  "what can you do?",
  "lol that was fun",
  "ok",
  "have a nice weekend",
  "is it going to rain today?",
  "great job on that",
  "hey",
];

describe("rules planner", () => {
  it.each(SCHEDULING)("proposes a meeting job: %s", (text, want, window) => {
    const d = planRules(frame(text));
    expect(d.type).toBe("propose_job");
    if (d.type !== "propose_job") return;
    expect(d.kind).toBe("schedule_meeting");
    expect(d.title).toMatch(/^Schedule /);
    expect(d.slots).toMatchObject(want);
    const words = d.slots.time_window;
    if (!window) return expect(words).toBeUndefined();
    const when = parseWhen(words!, { now: Date.parse(frame(text).now), timezone: d.slots.timezone ?? "Europe/Lisbon" });
    expect(when && describeWhen(when)).toBe(window);
  });

  it.each(NON_WORK)("does not invent a job for plain chat: %s", (text) => {
    const d = planRules(frame(text));
    expect(["chat_reply", "request_input"]).toContain(d.type);
    if (d.type === "chat_reply") expect(d.text.length).toBeLessThan(200);
  });

  it.each([
    ["Send invoice 123 to ACME", "Send invoice 123 to ACME"],
    ["Can you prepare the quarterly report?", "Prepare the quarterly report"],
    ["please draft a reply to the supplier", "Draft a reply to the supplier"],
    ["Remind Paulo about the contract on Monday", "Remind Paulo about the contract on Monday"],
    ["order more printer paper", "Order more printer paper"],
    ["Update the price list for January", "Update the price list for January"],
    ["Could you call the bank about the transfer?", "Call the bank about the transfer"],
    // A meeting verb with a person but no time is not a booking.
    ["Call Maria about the contract", "Call Maria about the contract"],
  ])("declines work no tool can do, naming the request: %s", (text, request) => {
    const d = planRules(frame(text));
    expect(d).toEqual({ type: "decline_work", request });
  });

  it.each([
    [
      "Hand it to Dan: Send invoice 123 to ACME",
      { type: "handoff", to_name: "Dan", request: "Send invoice 123 to ACME" },
    ],
    ["hand this to a person: book a table for Friday", { type: "handoff", request: "book a table for Friday" }],
    ["Hand it over to Ana — order paper", { type: "handoff", to_name: "Ana", request: "order paper" }],
  ])("reads an accepted handoff: %s", (text, decision) => {
    expect(planRules(frame(text))).toEqual(decision);
  });

  it("asks when it cannot tell", () => {
    expect(planRules(frame("can you help me with something")).type).toBe("request_input");
    expect(planRules(frame("a meeting with Maria?")).type).toBe("request_input");
  });

  it("continues the waiting job when the message carries its inputs", () => {
    const d = planRules(
      frame("her email is maria@acme.com, Tue-Thu 14:00-17:00 Europe/Lisbon on Google Meet", {
        jobs: [{ job_id: "job_1", title: "Schedule call with Maria", state: "waiting_input", conversation_id: "c" }],
        default_job_id: "job_1",
      }),
    );
    expect(d).toMatchObject({
      type: "continue_job",
      job_id: "job_1",
      slots: {
        attendee_email: "maria@acme.com",
        timezone: "Europe/Lisbon",
        meeting_link: "link",
        link_label: "Google Meet",
      },
    });
    if (d.type !== "continue_job") return;
    const when = parseWhen(d.slots.time_window!, {
      now: Date.parse("2025-12-27T10:15:00.000Z"),
      timezone: "Europe/Lisbon",
    });
    expect(when).toMatchObject({
      weekdays: [2, 3, 4],
      from_time: "14:00",
      to_time: "17:00",
      timezone: "Europe/Lisbon",
    });
  });

  it("is deterministic", () => {
    const f = frame("Can you schedule a 30-min call with Maria next week?");
    expect(planRules(f)).toEqual(planRules(f));
  });
});
