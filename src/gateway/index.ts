/** The gateway's public door: its factory, its routes, demo seeding and the HTTP guards. */
export { createGateway, type Gateway, type GatewayDeps } from "./gateway.js";
export { createGatewayRoutes } from "./routes/index.js";
export { moduleGuard } from "./module-guard.js";
export { conversationFilterFor, eventFilterFor, readsWholeLog } from "./visibility.js";
export type { GwEnv } from "./auth/middleware.js";
export { securityHeaders, bodyLimits, MAX_BODY_BYTES } from "./http-guards.js";
export { createStaticRoutes } from "./static.js";
export { seedDemo, writeDemoFile, DEMO_TENANT, DEMO_CONVERSATION, type DemoInfo } from "./demo.js";
export { DEFAULT_RATE_LIMIT, type RateLimitConfig } from "./rate-limit.js";
export { DEFAULT_STREAM_LIMITS, type StreamLimits } from "./live-connections.js";
export type { Logger } from "./core.js";
