import { existsSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

/**
 * Files under DATA_DIR are recorded relative to it ("attachments/tnt_x/art_y"), so a data dir
 * restored into another folder, or on another machine, serves every file it had.
 */
export function storedPath(dataDir: string, absolute: string): string {
  return relative(dataDir, absolute).split(sep).join("/");
}

/**
 * The file a stored path names in this data dir. A row from an earlier version holds an absolute
 * path: the part under a known folder (attachments/, artifacts/) is looked up here first, so
 * moved data still resolves.
 */
export function resolveStoredPath(dataDir: string, stored: string): string {
  if (!isAbsolute(stored)) return join(dataDir, ...stored.split("/"));
  const m = /[\\/](attachments|artifacts)[\\/](.+)$/.exec(stored);
  const moved = m ? join(dataDir, m[1]!, ...m[2]!.split(/[\\/]/)) : undefined;
  return moved && existsSync(moved) ? moved : stored;
}
