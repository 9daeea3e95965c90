/** Meeting times: reading them from words, picking a free slot, saying them back, writing them to .ics. */
export { parseWhen, type ParseWhenOptions } from "./parse.js";
export { pickSlot, windowBounds, type PickSlotOptions, type Slot } from "./slots.js";
export { describeWhen, formatSlot } from "./format.js";
export { buildInviteIcs, type InviteIcsInput } from "./ics.js";
export { findTimeZone } from "../tools/tz.js";
