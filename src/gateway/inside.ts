import type { Core } from "./core.js";
import type { GatewayApi } from "./gateway-api.js";

/** What the gateway's route adapters are built from: the api they call and the state they check requests against. */
export interface GatewayInside {
  readonly api: GatewayApi;
  readonly core: Core;
}
