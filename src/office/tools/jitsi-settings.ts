import { z } from "zod";
import { httpUrl } from "../../shared/env.js";

/** Office's video-call settings: the Jitsi Meet server rooms are made on. */

export const JITSI_ENV = z.object({
  JITSI_BASE_URL: httpUrl("JITSI_BASE_URL").optional(),
});

export interface JitsiSettings {
  /** Jitsi Meet server rooms are created on (a self-hosted one works the same). */
  jitsiBaseUrl: string;
  /** JITSI_BASE_URL was set: people may start a call in a conversation (never on the default service). */
  jitsiConfigured: boolean;
}

export function jitsiSettings(e: z.infer<typeof JITSI_ENV>): JitsiSettings {
  return { jitsiBaseUrl: e.JITSI_BASE_URL ?? "https://meet.jit.si", jitsiConfigured: e.JITSI_BASE_URL !== undefined };
}
