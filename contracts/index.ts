export * from "./primitives.js";
export * from "./cards.js";
export * from "./events.js";
export * from "./errors.js";
export * from "./ledger.js";
export * from "./office.js";
export * from "./gateway.js";
export * from "./sse.js";
