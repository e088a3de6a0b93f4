import { crc32, deflateSync } from 'node:zlib';
import { flagCode, MARKET_CODES } from '../../src/contracts/markets';

/**
 * The market picker's flags, drawn here as small PNGs from a few shapes per flag (stripes, crosses, discs) when the
 * server starts: simplified (no emblems or stars), recognisable at 24 px, and no image files or downloads needed.
 */
export const FLAG_WIDTH = 48;
export const FLAG_HEIGHT = 32;
const ASPECT = FLAG_WIDTH / FLAG_HEIGHT;

/** A layer: the colour it paints at (u, v) in [0, 1]² (u across, v down), or null where it leaves the flag as is. */
type Layer = (u: number, v: number) => string | null;

const fill =
  (color: string): Layer =>
  () =>
    color;

/** Stripes across (h) or down (v); a stripe may carry a weight ([colour, weight]) for unequal widths. */
function stripes(axis: 'h' | 'v', parts: (string | [string, number])[]): Layer {
  const weighted = parts.map((part) => (typeof part === 'string' ? ([part, 1] as const) : part));
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  return (u, v) => {
    let at = (axis === 'h' ? v : u) * total;
    for (const [color, weight] of weighted) {
      if (at < weight) return color;
      at -= weight;
    }
    return weighted[weighted.length - 1][0];
  };
}

const rect =
  (color: string, u0: number, v0: number, u1: number, v1: number): Layer =>
  (u, v) =>
    u >= u0 && u < u1 && v >= v0 && v < v1 ? color : null;

/** A cross whose vertical bar stands at `centre` (0.5: centred; less: a Nordic cross); width in flag heights. */
const cross =
  (color: string, width: number, centre = 0.5): Layer =>
  (u, v) =>
    Math.abs((u - centre) * ASPECT) < width / 2 || Math.abs(v - 0.5) < width / 2 ? color : null;

/** The diagonals from corner to corner; width in flag heights. */
const saltire =
  (color: string, width: number): Layer =>
  (u, v) => {
    const x = u * ASPECT;
    const norm = Math.hypot(1, ASPECT);
    const down = Math.abs(x - v * ASPECT) / norm;
    const up = Math.abs(x + v * ASPECT - ASPECT) / norm;
    return Math.min(down, up) < width / 2 ? color : null;
  };

/** A disc at (cu, cv) with radius r in flag heights. */
const disc =
  (color: string, cu: number, cv: number, r: number): Layer =>
  (u, v) =>
    Math.hypot((u - cu) * ASPECT, v - cv) < r ? color : null;

/** A triangle on the hoist reaching `depth` of the width. */
const hoistTriangle =
  (color: string, depth: number): Layer =>
  (u, v) =>
    u < depth * (1 - Math.abs(2 * v - 1)) ? color : null;

/** A centred diamond leaving `insetU` of the width and `insetV` of the height free on each side. */
const diamond =
  (color: string, insetU: number, insetV: number): Layer =>
  (u, v) =>
    Math.abs(u - 0.5) / (0.5 - insetU) + Math.abs(v - 0.5) / (0.5 - insetV) <= 1 ? color : null;

/** Another flag drawn in the top-left canton (u < u1, v < v1). */
const canton =
  (layers: Layer[], u1: number, v1: number): Layer =>
  (u, v) =>
    u < u1 && v < v1 ? paint(layers, u / u1, v / v1) : null;

function paint(layers: Layer[], u: number, v: number): string {
  let color = '#ffffff';
  for (const layer of layers) color = layer(u, v) ?? color;
  return color;
}

const WHITE = '#ffffff';
const UNION: Layer[] = [
  fill('#012169'),
  saltire(WHITE, 0.2),
  saltire('#c8102e', 0.07),
  cross(WHITE, 0.34),
  cross('#c8102e', 0.2),
];
const nordic = (ground: string, ...bars: [string, number][]): Layer[] => [
  fill(ground),
  ...bars.map(([color, width]) => cross(color, width, 0.37)),
];

/** The flags by their own code (GB for the United Kingdom, whose market code is UK). */
export const FLAG_LAYERS: Record<string, Layer[]> = {
  NL: [stripes('h', ['#ae1c28', WHITE, '#21468b'])],
  BE: [stripes('v', ['#000000', '#fdda24', '#ef3340'])],
  DE: [stripes('h', ['#000000', '#dd0000', '#ffce00'])],
  GB: UNION,
  US: [
    stripes(
      'h',
      Array.from({ length: 13 }, (_, index) => (index % 2 === 0 ? '#b22234' : WHITE)),
    ),
    rect('#3c3b6e', 0, 0, 0.4, 7 / 13),
  ],
  FR: [stripes('v', ['#002395', WHITE, '#ed2939'])],
  ES: [stripes('h', ['#aa151b', ['#f1bf00', 2], '#aa151b'])],
  IT: [stripes('v', ['#009246', WHITE, '#ce2b37'])],
  AE: [stripes('h', ['#00732f', WHITE, '#000000']), rect('#ff0000', 0, 0, 0.25, 1)],
  AR: [stripes('h', ['#74acdf', WHITE, '#74acdf']), disc('#f6b40e', 0.5, 0.5, 0.1)],
  AT: [stripes('h', ['#c8102e', WHITE, '#c8102e'])],
  AU: [fill('#012169'), canton(UNION, 0.5, 0.5), disc(WHITE, 0.25, 0.75, 0.1), disc(WHITE, 0.75, 0.5, 0.06)],
  BG: [stripes('h', [WHITE, '#00966e', '#d62612'])],
  BR: [fill('#009c3b'), diamond('#ffdf00', 0.08, 0.12), disc('#002776', 0.5, 0.5, 0.22)],
  CA: [stripes('v', ['#d80621', ['#ffffff', 2], '#d80621']), diamond('#d80621', 0.4, 0.2)],
  CH: [fill('#da291c'), rect(WHITE, 0.42, 0.2, 0.58, 0.8), rect(WHITE, 0.3, 0.41, 0.7, 0.59)],
  CL: [stripes('h', [WHITE, '#d52b1e']), rect('#0039a6', 0, 0, 1 / 3, 0.5), disc(WHITE, 1 / 6, 0.25, 0.08)],
  CO: [stripes('h', [['#fcd116', 2], '#003893', '#ce1126'])],
  CZ: [stripes('h', [WHITE, '#d7141a']), hoistTriangle('#11457e', 0.5)],
  DK: nordic('#c8102e', [WHITE, 0.125]),
  EE: [stripes('h', ['#0072ce', '#000000', WHITE])],
  EG: [stripes('h', ['#ce1126', WHITE, '#000000']), disc('#c09300', 0.5, 0.5, 0.08)],
  FI: nordic(WHITE, ['#002f6c', 0.27]),
  GR: [
    stripes(
      'h',
      Array.from({ length: 9 }, (_, index) => (index % 2 === 0 ? '#0d5eaf' : WHITE)),
    ),
    canton([fill('#0d5eaf'), cross(WHITE, 0.2)], 0.37, 5 / 9),
  ],
  HR: [stripes('h', ['#ff0000', WHITE, '#171796'])],
  HU: [stripes('h', ['#cd2a3e', WHITE, '#436f4d'])],
  ID: [stripes('h', ['#ff0000', WHITE])],
  IE: [stripes('v', ['#169b62', WHITE, '#ff883e'])],
  IL: [stripes('h', [WHITE, '#0038b8', [WHITE, 5], '#0038b8', WHITE])],
  IN: [stripes('h', ['#ff9933', WHITE, '#138808']), disc('#000080', 0.5, 0.5, 0.12)],
  IS: nordic('#02529c', [WHITE, 0.22], ['#dc1e35', 0.11]),
  JP: [fill(WHITE), disc('#bc002d', 0.5, 0.5, 0.3)],
  LT: [stripes('h', ['#fdb913', '#006a44', '#c1272d'])],
  LU: [stripes('h', ['#ef3340', WHITE, '#00a3e0'])],
  LV: [stripes('h', [['#9e3039', 2], WHITE, ['#9e3039', 2]])],
  MT: [stripes('v', [WHITE, '#cf142b'])],
  MX: [stripes('v', ['#006847', WHITE, '#ce1126']), disc('#8c6b3e', 0.5, 0.5, 0.1)],
  NG: [stripes('v', ['#008751', WHITE, '#008751'])],
  NO: nordic('#ba0c2f', [WHITE, 0.25], ['#00205b', 0.125]),
  NZ: [fill('#012169'), canton(UNION, 0.5, 0.5), disc('#c8102e', 0.75, 0.3, 0.06), disc('#c8102e', 0.75, 0.75, 0.06)],
  PE: [stripes('v', ['#d91023', WHITE, '#d91023'])],
  PL: [stripes('h', [WHITE, '#dc143c'])],
  PT: [
    stripes('v', [
      ['#006600', 2],
      ['#ff0000', 3],
    ]),
    disc('#ffe900', 0.4, 0.5, 0.18),
  ],
  RO: [stripes('v', ['#002b7f', '#fcd116', '#ce1126'])],
  RS: [stripes('h', ['#c6363c', '#0c4076', WHITE])],
  SE: nordic('#006aa7', ['#fecc00', 0.2]),
  SI: [stripes('h', [WHITE, '#005da4', '#ed1c24'])],
  SK: [stripes('h', [WHITE, '#0b4ea2', '#ee1c25'])],
  TH: [stripes('h', ['#a51931', WHITE, ['#2d2a4a', 2], WHITE, '#a51931'])],
  TR: [fill('#e30a17'), disc(WHITE, 0.38, 0.5, 0.25), disc('#e30a17', 0.43, 0.5, 0.2)],
  UA: [stripes('h', ['#0057b7', '#ffd700'])],
  VN: [fill('#da251d'), disc('#ffff00', 0.5, 0.5, 0.2)],
};

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit RGB PNG of the flag (PNG specification: signature, IHDR, one IDAT of unfiltered rows, IEND). */
export function renderFlag(layers: Layer[]): Buffer {
  const rows = Buffer.alloc(FLAG_HEIGHT * (1 + FLAG_WIDTH * 3));
  let offset = 0;
  for (let y = 0; y < FLAG_HEIGHT; y += 1) {
    rows[offset++] = 0;
    for (let x = 0; x < FLAG_WIDTH; x += 1) {
      const hex = paint(layers, (x + 0.5) / FLAG_WIDTH, (y + 0.5) / FLAG_HEIGHT);
      rows.writeUIntBE(Number.parseInt(hex.slice(1), 16), offset, 3);
      offset += 3;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(FLAG_WIDTH, 0);
  header.writeUInt32BE(FLAG_HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Every flag the picker offers as PNG, by market code and by flag code (UK and GB give the same image): drawn once
 * when the server starts, about 50 images of some 300 bytes.
 */
export function renderMarketFlags(): Map<string, Buffer> {
  const flags = new Map<string, Buffer>();
  for (const market of MARKET_CODES) {
    const image = renderFlag(FLAG_LAYERS[flagCode(market)]);
    flags.set(market, image);
    flags.set(flagCode(market), image);
  }
  return flags;
}
