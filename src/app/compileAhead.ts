/**
 * The page's first work, evaluated before the rest of its code (main.tsx imports it first after noEval): on a screen
 * that queries the engine, DuckDB's module starts downloading and compiling in its worker now, for a visitor who is
 * probably signed in (signedInHere.ts) or on a public report. Before, it waited for the page's own code to run and
 * the session's answer: on the demo dashboard's cold open it started 0.38–0.45 s after navigation, and its compilation
 * was the open's longest step (bench/README.md). The browser creates the compiling worker only once the page's first
 * long task (evaluating its scripts) has ended, so the module is asked for at about 0.3 s, not at once. For anyone
 * else only the compiling worker starts: the module waits for a signed-in answer, so a signed-out visitor sent to the
 * sign-in page downloads none. A reload of a page whose answers were kept compiles nothing yet: those answers are
 * drawn first, the engine after (main.tsx, engineClient.ts).
 */
import { answersKeptFor } from '../workers/keptResults';
import { isPublicReportPath, queriesEngineAt } from './enginePaths';
import { signedInHere } from './signedInHere';

/**
 * The page's side of DuckDB's compilation, asked for here (a few KiB, in the engine client's chunk as well) rather than
 * imported: the sign-in page's first load stays within its budget (bench/README.md, `bench:bundle`).
 */
const pageModule = () => import(/* webpackChunkName: "engine-client" */ '../workers/pageModule');

/** What the page's first module did, given the address, the browser's storage and cookies; pure but for `start`. */
export function compileAhead(
  pathname: string,
  storage: Pick<Storage, 'getItem'>,
  cookies: string,
  start: { compile(): void; prepare(): void },
): { afterKeptAnswers: boolean } {
  const afterKeptAnswers = answersKeptFor(storage, pathname);
  if (afterKeptAnswers || !queriesEngineAt(pathname)) return { afterKeptAnswers };
  if (isPublicReportPath(pathname) || signedInHere(storage, cookies)) start.compile();
  else start.prepare();
  return { afterKeptAnswers };
}

/** Whether this page's engine waits for the kept answers of an earlier visit to be drawn (main.tsx). */
export const { afterKeptAnswers } =
  typeof Worker === 'undefined'
    ? { afterKeptAnswers: false }
    : compileAhead(window.location.pathname, window.localStorage, document.cookie, {
        compile: () =>
          void pageModule()
            .then(({ duckdbModule }) => duckdbModule())
            .catch(() => undefined),
        prepare: () =>
          void pageModule()
            .then(({ prepareCompiler }) => prepareCompiler())
            .catch(() => undefined),
      });
