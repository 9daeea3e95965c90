/**
 * The gateway's settings door: its slice of the environment and what the slice maps to, without
 * loading the gateway itself.
 */
export { GATEWAY_ENV, type GatewaySettings, gatewaySettings } from "./env.js";
