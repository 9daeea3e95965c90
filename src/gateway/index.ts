/** The gateway's public door: its factory (the door itself: api, routes, guard, demo seeding, life), and the HTTP guards. */
export { createGateway, type Gateway } from "./gateway.js";
export { securityHeaders, bodyLimits, closeUnreadBodies, wellFormedText, wellFormedUrl } from "./http/guards.js";
export { createStaticRoutes } from "./http/static.js";
export { writeDemoFile, type DemoInfo } from "./workspaces/demo.js";
export type { RateLimitConfig } from "./http/rate-limit.js";
export type { StreamLimits } from "./stream/live-connections.js";
export type { Logger } from "./core.js";
export type { SignInMailer } from "./sessions/index.js";
export type { PreviewSettings } from "./previews/index.js";
/** The gateway's tables on PostgreSQL, shared by every process on the database. */
export { migratePgGateway } from "./pg/store.js";
export { createPgIdempotencyStore } from "./pg/idempotency-pg.js";
export { pgAuthRows } from "./auth/auth-rows.js";
export { createPgRateLimits } from "./pg/rate-limit-pg.js";
