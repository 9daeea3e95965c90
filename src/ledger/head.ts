/** Where a tenant's log stands: its last position and hash, and its Merkle tree's right edge. */
export interface Head {
  seq: number;
  hash: string;
  /** The RFC 6962 tree's right edge at `seq` leaves (see merkle/rfc6962.ts). */
  frontier: readonly Buffer[];
}
