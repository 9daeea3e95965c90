import { deflateSync } from "node:zlib";

/** Pictures made here, byte by byte, so tests need no image files: real PNGs any browser decodes. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function ihdr(width: number, height: number): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(width, 0);
  d.writeUInt32BE(height, 4);
  d[8] = 8; // bit depth
  d[9] = 2; // truecolour RGB
  return chunk("IHDR", d);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A whole PNG of one colour. */
export function png(
  width: number,
  height: number,
  rgb: [number, number, number] = [40, 120, 200],
): Uint8Array<ArrayBuffer> {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return new Uint8Array(
    Buffer.concat([SIGNATURE, ihdr(width, height), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())]),
  );
}

/** Only a PNG's header, claiming any size: what a decompression bomb shows before its pixels. */
export function pngHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat([SIGNATURE, ihdr(width, height), chunk("IEND", new Uint8Array())]));
}

/** A GIF's header (GIF89a, logical screen size), enough for its type and size to be read. */
export function gifHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  const b = Buffer.alloc(13);
  b.write("GIF89a", 0, "ascii");
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return new Uint8Array(b);
}
