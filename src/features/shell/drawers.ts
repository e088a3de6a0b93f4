/** Drawers are driven by query parameters with this prefix; 'drawer.type' names the drawer (spec 1 §2.2). */
export const DRAWER_PREFIX = 'drawer.';

/**
 * Every drawer of the product. The shell's DrawerHost renders the workspace-wide ones and 'share' (opened from
 * the reports home and a report's toolbar); a dashboard renders its own (configure-dashboard-widget,
 * kpi-widget, target) and an explorer view its date-field and baselines drawers, as they need the report being
 * edited; the targets screen renders 'target' too.
 */
export const drawerTypes = [
  'demo',
  'edit-alert',
  'getting-started',
  'feedback',
  'annotations',
  'share',
  'configure-dashboard-widget',
  'kpi-widget',
  'target',
  'date-field',
  'baselines',
] as const;
export type DrawerType = (typeof drawerTypes)[number];

export function drawerFromParams(params: URLSearchParams): { type: DrawerType | null } {
  const type = params.get(`${DRAWER_PREFIX}type`);
  return { type: drawerTypes.includes(type as DrawerType) ? (type as DrawerType) : null };
}

/** The search parameters that open `type` with its own parameters, replacing any open drawer. */
export function openDrawerParams(
  params: URLSearchParams,
  type: DrawerType,
  extra: Record<string, string> = {},
): URLSearchParams {
  const next = closeDrawerParams(params);
  next.set(`${DRAWER_PREFIX}type`, type);
  for (const [key, value] of Object.entries(extra)) next.set(`${DRAWER_PREFIX}${key}`, value);
  return next;
}

/** The search parameters without any drawer. */
export function closeDrawerParams(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...next.keys()]) if (key.startsWith(DRAWER_PREFIX)) next.delete(key);
  return next;
}
