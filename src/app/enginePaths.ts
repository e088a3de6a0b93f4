/** A public report's page (`/reports/:reportId`), which anyone with its link may open. */
const PUBLIC_REPORT_PATH = /^\/reports\/[^/]+\/?$/;

/** A workspace's reports area (its home, the list, a report), alerting, engagement and targets. */
const WORKSPACE_ENGINE_PATH = /^\/workspaces\/[^/]+(?:\/(?:reports|alerting|engagement|targets)(?:\/[^/]+)*)?\/?$/;

export const isPublicReportPath = (pathname: string) => PUBLIC_REPORT_PATH.test(pathname);

/**
 * Whether the screens at an address query the engine (src/app/router.tsx's routes), told from the address alone, so
 * that the page's first module can tell before any of the router's code has run (src/app/compileAhead.ts).
 */
export const queriesEngineAt = (pathname: string) =>
  WORKSPACE_ENGINE_PATH.test(pathname) || isPublicReportPath(pathname);
