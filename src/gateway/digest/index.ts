/** The e-mail digest of what waited on a person (DIGEST_AFTER_MINUTES, with mail configured). */
export { createDigest, type Digest } from "./digest.js";
