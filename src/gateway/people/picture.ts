import { imageSize } from "image-size";
import { LIMITS } from "../../../contracts/facts.js";
import { AppError } from "../../shared/errors.js";

/** The pictures the Messenger shows inline, by the type image-size reads from their header. */
const PICTURE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
const PICTURE_MIMES = new Set(Object.values(PICTURE_TYPES));

/** What the header of an upload says: its real picture type and size, or nothing for other files. */
export interface Picture {
  mime: string;
  /** Set only when the picture is small enough to be shown (and decoded by browsers) inline. */
  size?: { width: number; height: number };
}

/** image-size reads only headers (no pixel is decoded); anything it cannot parse is "not a picture". */
function readHeader(bytes: Uint8Array): { type: string; width: number; height: number; orientation?: number } | null {
  try {
    const r = imageSize(bytes);
    if (!r.type || !r.width || !r.height) return null;
    return { type: r.type, width: r.width, height: r.height, ...(r.orientation ? { orientation: r.orientation } : {}) };
  } catch {
    return null;
  }
}

/**
 * Checks a file declared as a picture against its content. A declared picture whose bytes are no
 * picture at all (a script, an SVG, HTML) is refused: we never store bytes under an image type
 * they do not have. One picture type in another's clothing (a JPEG named .png) is kept under the
 * type its bytes have. The size comes from the header, so the bubble reserves its space; a picture
 * past the pixel bound is kept as a plain download, so no browser is asked to decode it.
 * Files not declared as pictures are left as they are (served as attachments, never inline).
 */
export function inspectPicture(bytes: Uint8Array, declaredMime: string): Picture | null {
  if (!PICTURE_MIMES.has(declaredMime)) return null;
  const head = readHeader(bytes);
  const mime = head ? PICTURE_TYPES[head.type] : undefined;
  if (!head || !mime) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `The file is declared as ${declaredMime}, but its content is not a PNG, JPEG, GIF or WebP picture`,
      {
        field: "file",
        declared: declaredMime,
        detected: head?.type ?? null,
      },
    );
  }
  // EXIF orientations 5–8 turn the picture a quarter: browsers show it that way, so reserve that box.
  const turned = (head.orientation ?? 1) >= 5;
  const width = turned ? head.height : head.width;
  const height = turned ? head.width : head.height;
  const fits = width <= LIMITS.imageSide && height <= LIMITS.imageSide && width * height <= LIMITS.imagePixels;
  return fits ? { mime, size: { width, height } } : { mime };
}
