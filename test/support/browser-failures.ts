import { beforeEach, onTestFailed } from "vitest";
import { inFlightReport } from "./in-flight.js";

/** A failed browser test also says which requests the servers and the browser were still waiting on. */
beforeEach(() => {
  onTestFailed(() => console.error(`unanswered when the test failed:\n${inFlightReport()}`));
});
