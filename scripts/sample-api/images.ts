/**
 * Procedural pictures for the sample API, so that the site has real bitmaps to
 * show (and to resize) on a machine with no network. Each picture is derived
 * from its name, so a reseed produces the same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { replaceFileSync } from '../lib/replace-file.ts';

export type PictureKind = 'landscape' | 'portrait';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes 8-bit RGB rows as a PNG file. */
function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small deterministic generator seeded by the picture's name (media.ts draws its photographs with it too). */
export function random(name: string): () => number {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}

type Rgb = [number, number, number];
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

// Palettes of the region: desert sand, steppe green, lake blue, evening sky.
const SKIES: [Rgb, Rgb][] = [
  [
    [110, 170, 225],
    [225, 238, 248],
  ],
  [
    [245, 170, 110],
    [255, 228, 190],
  ],
  [
    [90, 130, 200],
    [200, 220, 240],
  ],
  [
    [170, 200, 230],
    [250, 245, 230],
  ],
];
const GROUNDS: Rgb[] = [
  [200, 170, 110],
  [120, 160, 90],
  [90, 140, 110],
  [180, 140, 90],
  [70, 120, 160],
];

export function renderPicture(name: string, kind: PictureKind): { width: number; height: number; png: Buffer } {
  const rnd = random(name);
  const [width, height] = kind === 'portrait' ? [480, 600] : [1200, 800];
  const rgb = new Uint8Array(width * height * 3);
  const [skyTop, skyLow] = SKIES[Math.floor(rnd() * SKIES.length)]!;
  const layers = Array.from({ length: 3 }, (_, i) => ({
    colour: mix(GROUNDS[Math.floor(rnd() * GROUNDS.length)]!, [30, 40, 40], i * 0.22),
    base: height * (0.55 + i * 0.12),
    amp: height * (0.03 + rnd() * 0.06),
    freq: (1 + rnd() * 3) / width,
    phase: rnd() * Math.PI * 2,
  }));
  const sun = { x: width * (0.15 + rnd() * 0.7), y: height * (0.15 + rnd() * 0.2), r: Math.min(width, height) * 0.07 };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let c = mix(skyTop, skyLow, y / height);
      if (Math.hypot(x - sun.x, y - sun.y) < sun.r) c = [255, 236, 170];
      for (const l of layers) {
        if (y > l.base + Math.sin(x * l.freq * Math.PI * 2 + l.phase) * l.amp) c = l.colour;
      }
      if (kind === 'portrait') {
        const head = Math.hypot((x - width / 2) / 0.8, y - height * 0.4) < width * 0.17;
        const shoulders = ((x - width / 2) / (width * 0.38)) ** 2 + ((y - height * 0.95) / (height * 0.3)) ** 2 < 1;
        if (head || shoulders) c = mix([52, 63, 80], c, 0.15);
      }
      const i = (y * width + x) * 3;
      rgb[i] = c[0];
      rgb[i + 1] = c[1];
      rgb[i + 2] = c[2];
    }
  }
  return { width, height, png: encodePng(width, height, rgb) };
}

/**
 * Pictures drawn once for every data folder on this machine, where tools keep their caches: a picture depends
 * only on its name, its kind and this file, and drawing a seed's hundred took some 10 s of a core for each new
 * data folder (each test names its own).
 */
const DRAWN_DIR = fileURLToPath(
  new URL(
    `../../node_modules/.cache/sample-api-pictures/${createHash('sha256')
      .update(readFileSync(fileURLToPath(import.meta.url)))
      .digest('hex')
      .slice(0, 16)}/`,
    import.meta.url,
  ),
);

/** The PNG file of the picture `name` of `kind`, drawn now unless drawn before. */
export function drawnPicture(name: string, kind: PictureKind): string {
  const file = join(DRAWN_DIR, `${kind}-${name}.png`);
  if (!existsSync(file)) {
    mkdirSync(DRAWN_DIR, { recursive: true });
    // Another process may be drawing the same picture: none may read half of one.
    replaceFileSync(file, renderPicture(name, kind).png);
  }
  return file;
}
