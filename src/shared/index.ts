export * from "./errors.js";
export * from "./clock.js";
export * from "./ids.js";
