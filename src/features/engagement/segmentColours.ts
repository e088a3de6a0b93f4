import { type EngagementSegmentId } from '../../contracts/catalogue';

/**
 * The five fixed segment colours (spec 3 §2), one per segment slot. Mid-tone so each keeps a 3:1 contrast
 * (WCAG 1.4.11, graphics) against the light and the dark page background alike.
 */
export const SEGMENT_COLOURS: Record<EngagementSegmentId, string> = {
  new: '#2d72d2',
  highly_engaged: '#238551',
  engaged: '#7a8a1f',
  at_risk: '#c87619',
  inactive: '#7c6f8a',
};

/** Blueprint's page backgrounds: light, and dark mode's. */
export const PAGE_BACKGROUNDS = { light: '#ffffff', dark: '#1c2127' } as const;

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}
