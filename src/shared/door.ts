import type { Context, Env, Hono, MiddlewareHandler } from "hono";
import type { TStoredEvent } from "../../contracts/events.js";

/**
 * What one module's routes ask of whoever sits in front of them (the gateway's auth): a check
 * before each route, and what the caller may read. Without a guard a module's routes stand alone
 * (the ledger's then answer loopback clients only).
 */
export interface RouteGuard<E extends Env = Env> {
  /** Runs before each of the module's routes: authentication, tenancy, rate limits. */
  check: MiddlewareHandler<E>;
  /** Which events the caller may read (query pages, stream frames); undefined reads all. */
  events(c: Context<E>): ((e: TStoredEvent) => boolean) | undefined;
  /** Which conversations the caller may read; undefined reads all. */
  conversations(c: Context<E>): ((conversationId: string) => boolean) | undefined;
}

/**
 * Every module's door, the same shape for the ledger, Office and the gateway:
 * `createX(deps, config)` returns the interface that mirrors the module's REST routes (`api`),
 * those routes, and the module's life (`start` after the modules it serves are built, `close`).
 */
export interface ModuleDoor<Api> {
  readonly api: Api;
  /** The module's REST routes; behind `guard` when one is given (the gateway's own routes carry theirs). */
  // biome-ignore lint/suspicious/noExplicitAny: route groups differ in their env and schema types
  routes<E extends Env>(guard?: RouteGuard<E>): Hono<any, any, any>;
  start(): Promise<void>;
  close(): void | Promise<void>;
}
