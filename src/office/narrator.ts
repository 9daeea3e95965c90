/**
 * Office's voice: short, certain, no apologies. Every word a person reads on a job's card — its
 * title and summary, status line, steps, blockers, buttons, forms and their errors, the proposed
 * job's goal and plan, the outcome — and every line the agent says about a job is written in
 * ./narrator/, from the message catalogs (locales/<lang>/office-*.json), so the copy stays
 * consistent across cards and chat. This file is its one entry; test/job/narrator.test.ts holds
 * every other Office file to it.
 *
 * - ./narrator/cards.ts: the card frames and their button sets;
 * - ./narrator/proposals.ts: a Formalize card's proposed job (title, goal, inputs, outputs, plan);
 * - ./narrator/progress.ts: a Tracking card's words while a job runs or waits;
 * - ./narrator/outcomes.ts: the words that say something happened, each from the record that proves it;
 * - ./narrator/chat.ts: the agent's chat lines about a job.
 *
 * Each function takes the formatter of the language it speaks (the job's or the person's);
 * English when none is given.
 */
export * from "./narrator/buttons.js";
export * from "./narrator/cards.js";
export * from "./narrator/chat.js";
export * from "./narrator/outcomes.js";
export * from "./narrator/progress.js";
export * from "./narrator/proposals.js";
