import { restartStatedClocks } from "./clock.js";

/** Runs before each test file (test/vitest.config.ts), in the lane's shared process. */
restartStatedClocks();
