/** The gateway's public door: its factory, its routes, demo seeding and the HTTP guards. */
export { createGateway, type Gateway, type GatewayDeps } from "./gateway.js";
export { createGatewayRoutes } from "./routes/index.js";
export { moduleGuard } from "./module-guard.js";
export { securityHeaders, bodyLimits, MAX_BODY_BYTES } from "./http-guards.js";
export { createStaticRoutes } from "./static.js";
export { seedDemo, writeDemoFile, DEMO_TENANT, DEMO_CONVERSATION, type DemoInfo } from "./demo.js";
export { DEFAULT_RATE_LIMIT, type RateLimitConfig } from "./rate-limit.js";
export type { Logger } from "./core.js";
