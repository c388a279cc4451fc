#!/usr/bin/env node
// Draws the app icon (the same design as build/icons/icon.svg) and writes the
// PNG set (16..1024), icon.ico (Windows) and icon.icns (macOS) into
// build/icons/. Pure Node (zlib for PNG), no image libraries:
//   node build/make-icons.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), 'icons');
mkdirSync(out, { recursive: true });

// ---- the design, in a 0..1 square (y down) ----
const LEFT = [0.3, 0.5, 0.7].map((y) => [0.3, y]);
const HUB = [0.72, 0.5];
const segment = (px, py, [ax, ay], [bx, by]) => {
  const dx = bx - ax,
    dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
};
const roundedSquare = (x, y, r) => {
  const qx = Math.abs(x - 0.5) - (0.5 - r),
    qy = Math.abs(y - 0.5) - (0.5 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
/** [r, g, b, a] at a point. */
function sample(x, y) {
  if (roundedSquare(x, y, 0.22) > -0.02) return [0, 0, 0, 0];
  const t = (x + y) / 2; // indigo -> violet
  let color = [79 + (124 - 79) * t, 70 + (58 - 70) * t, 229 + (237 - 229) * t, 255];
  let white = false;
  for (const dot of LEFT) {
    if (Math.hypot(x - dot[0], y - dot[1]) < 0.065) white = true;
    if (segment(x, y, dot, HUB) < 0.022) white = true;
  }
  if (Math.hypot(x - HUB[0], y - HUB[1]) < 0.11) white = true;
  if (white) color = [255, 255, 255, 255];
  return color;
}

function render(size) {
  const n = size <= 32 ? 6 : 4; // supersampling
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [r, g, b, a] = sample((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          acc[0] += r * a;
          acc[1] += g * a;
          acc[2] += b * a;
          acc[3] += a;
        }
      }
      const at = (py * size + px) * 4;
      const alpha = acc[3] / (n * n);
      pixels[at] = acc[3] ? Math.round(acc[0] / acc[3]) : 0;
      pixels[at + 1] = acc[3] ? Math.round(acc[1] / acc[3]) : 0;
      pixels[at + 2] = acc[3] ? Math.round(acc[2] / acc[3]) : 0;
      pixels[at + 3] = Math.round(alpha);
    }
  }
  return pixels;
}

// ---- PNG ----
const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf) => {
  let c = -1;
  for (const byte of buf) c = CRC[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};
function png(size, pixels) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) pixels.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const pngs = new Map(sizes.map((size) => [size, png(size, render(size))]));
for (const [size, data] of pngs) writeFileSync(join(out, `${size}x${size}.png`), data);
writeFileSync(join(out, 'icon.png'), pngs.get(512));

// ---- ICO: PNG-compressed entries (Windows Vista and later) ----
const icoSizes = [16, 24, 32, 48, 64, 128, 256];
const header = Buffer.alloc(6 + 16 * icoSizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(icoSizes.length, 4);
let offset = header.length;
icoSizes.forEach((size, i) => {
  const data = pngs.get(size);
  const at = 6 + 16 * i;
  header[at] = size === 256 ? 0 : size;
  header[at + 1] = size === 256 ? 0 : size;
  header.writeUInt16LE(1, at + 4);
  header.writeUInt16LE(32, at + 6);
  header.writeUInt32LE(data.length, at + 8);
  header.writeUInt32LE(offset, at + 12);
  offset += data.length;
});
writeFileSync(join(out, 'icon.ico'), Buffer.concat([header, ...icoSizes.map((s) => pngs.get(s))]));

// ---- ICNS: PNG-compressed entries ----
const icns = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
].map(([type, size]) => {
  const data = pngs.get(size);
  const head = Buffer.alloc(8);
  head.write(type, 0, 'ascii');
  head.writeUInt32BE(data.length + 8, 4);
  return Buffer.concat([head, data]);
});
const body = Buffer.concat(icns);
const icnsHead = Buffer.alloc(8);
icnsHead.write('icns', 0, 'ascii');
icnsHead.writeUInt32BE(body.length + 8, 4);
writeFileSync(join(out, 'icon.icns'), Buffer.concat([icnsHead, body]));
console.log(`icons written to ${out}`);
