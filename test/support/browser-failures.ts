import { beforeEach, onTestFailed } from "vitest";
import { forgetClosedContexts, inFlightReport, openPagesReport } from "./in-flight.js";

/**
 * A failed browser test also says what went wrong on that attempt (a retried test that then
 * passes shows no error otherwise) and which requests the servers and the browser were still
 * waiting on, with the browser's recent failed requests and page errors.
 */
beforeEach(() => {
  forgetClosedContexts();
  onTestFailed(async ({ task }) => {
    const errors = (task.result?.errors ?? [])
      .map((e) => `${e.name ?? "Error"}: ${e.message ?? ""}`.slice(0, 600))
      .join("\n");
    const unanswered = inFlightReport();
    // What the pages still open show at this moment (address and first words).
    const shown = await openPagesReport();
    console.error(
      `failed attempt:\n${errors || "(no error recorded)"}\nunanswered when the test failed, and what went wrong in the browser:\n${unanswered}${shown.length ? `\nopen pages:\n${shown.join("\n")}` : ""}`,
    );
  });
});
