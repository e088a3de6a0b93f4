/** The 10 series colours of charts (spec 2 §9), in the order series take them. */
export const SERIES_PALETTE = [
  '#2d72d2',
  '#d1980b',
  '#238551',
  '#cd4246',
  '#7961db',
  '#00a396',
  '#db2c6f',
  '#8eb125',
  '#935610',
  '#5f6b7c',
] as const;

/** The colour of the series at `index`, wrapping around after the tenth. */
export function seriesColor(index: number): string {
  return SERIES_PALETTE[index % SERIES_PALETTE.length];
}
