import type { Env } from "hono";
import type { ModuleDoor, RouteGuard } from "../shared/door.js";
import { createRouter } from "../shared/openapi.js";
import type { CreateOfficeDeps } from "./office-deps.js";
import { createOfficeRuntime, type Office } from "./office.js";
import { createOfficeRoutes } from "./routes.js";

/** What Office's settings are: the outside services it may use and how it retries (see src/office/settings.ts). */
type OfficeSettingKeys =
  | "jitsiBaseUrl"
  | "calls"
  | "mail"
  | "imap"
  | "mcpServers"
  | "retrySchedule"
  | "defaultTimezone"
  | "defaultLocale"
  | "breaker"
  | "mailSchedule"
  | "imapPollMs"
  | "imapBackoffMs";

/** What Office is built on: the ledger's api, storage, time, ids, its planner and calendar, the log (tests inject a mail transport). */
export type OfficeDeps = Omit<CreateOfficeDeps, OfficeSettingKeys>;

/** Office's settings. */
export type OfficeConfig = Pick<CreateOfficeDeps, OfficeSettingKeys>;

/** Office's door: `api` mirrors /v1/office (and what the gateway asks of Office in process). */
export type OfficeDoor = ModuleDoor<Office>;

/**
 * Office behind its door. `start` (after the gateway follows the ledger) re-arms retries and
 * answers what the inbox holds; `close` stops every timer and worker.
 */
export function createOffice(deps: OfficeDeps, config: OfficeConfig = {}): OfficeDoor {
  const { start, stop, ...api } = createOfficeRuntime({ ...deps, ...config });
  return {
    api,
    routes<E extends Env>(guard?: RouteGuard<E>) {
      if (!guard) return createOfficeRoutes<E>(api);
      const app = createRouter<E>();
      app.use("/v1/office/*", guard.check);
      app.use("/v1/agents/:entity_id/trajectory", guard.check);
      app.route("/", createOfficeRoutes<E>(api, { conversationFilter: guard.conversations }));
      return app;
    },
    start,
    close: stop,
  };
}
