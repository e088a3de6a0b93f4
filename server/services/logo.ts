import sharp from 'sharp';
import { LOGO_UNPROCESSABLE } from '../../src/contracts/workspaces';
import { badRequest } from '../http/errors';

/** Larger images are refused before they are decoded: a small file can expand to gigabytes of pixels. */
export const LOGO_MAX_INPUT_PIXELS = 4096 * 4096;
/** Formats detected from the bytes that we accept; SVG (scriptable) and anything else are refused. */
const RASTER_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
const LOGO_MAX_SIDE = 1024;

/**
 * Turns an uploaded file into a clean PNG: the type comes from the bytes, never the name or the
 * declared content type, and re-encoding drops every metadata chunk (EXIF, comments, text).
 */
export async function normalizeLogo(input: Buffer): Promise<Buffer> {
  try {
    const options = { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: 'error' as const };
    const { format } = await sharp(input, options).metadata();
    if (!format || !RASTER_FORMATS.has(format)) throw new Error(`refused format ${format ?? 'unknown'}`);
    return await sharp(input, options)
      .rotate()
      .resize({ width: LOGO_MAX_SIDE, height: LOGO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw badRequest(LOGO_UNPROCESSABLE);
  }
}
