/**
 * The gateway's settings door: what the configuration needs to check the gateway's settings,
 * without loading the gateway itself.
 */
export { checkTrustedProxies } from "./client-address.js";
export { parseAllowList as checkPreviewAllowList } from "./previews/address.js";
