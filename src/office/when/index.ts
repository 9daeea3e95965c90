/** Meeting times: reading them from words, picking a free slot, saying them back, writing them to .ics. */
export { parseWhen } from "./parse.js";
export { pickSlot, windowBounds } from "./slots.js";
export { describeWhen, formatSlot } from "./format.js";
export { buildInviteIcs } from "./ics.js";
export { findTimeZone } from "../tools/tz.js";
