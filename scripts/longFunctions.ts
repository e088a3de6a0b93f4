/**
 * Lists the functions, arrow functions and methods in src/ and server/ (tests left out) longer than 80 lines, each
 * with whether the comment right above it says why it stays long, and prints the counts. The reason is written as
 * "Long because …" in that comment (a line comment or the function's JSDoc), so that a comment describing what the
 * function does is not taken for one explaining its length. A long function inside a long function is counted once, as the
 * outer one: its comment covers both.
 *
 * A script rather than ESLint's max-lines-per-function: that rule cannot accept a plain comment as the reason (only
 * an eslint-disable directive), and as a lint error it would fail every branch still in flight the day it lands.
 *
 * Usage: npx tsx scripts/longFunctions.ts [--uncommented] [--max N]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

interface LongFunction {
  file: string;
  line: number;
  lines: number;
  name: string;
  commented: boolean;
}

const TEST_FILE = /\.(test|spec)\.tsx?$|\/testing\//;

function sourceFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'server'], {
    encoding: 'utf8',
  });
  return tracked.split('\n').filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !TEST_FILE.test(file));
}

/** A readable name: the function's own, or the variable, property or call it is given to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source).slice(0, 40)}(…)`;
  return '(anonymous)';
}

const SAYS_WHY_LONG = /\bLong because\b|longer than 80 lines, because/;
const COMMENT_LINE = /^(\/\/|\/\*|\*|\{\/\*)/;

/** The comment lines right above the function's first line (blank lines skipped) say why it is long. */
function saysWhyLong(lines: string[], firstLine: number): boolean {
  let index = firstLine - 1;
  while (index >= 0 && lines[index].trim() === '') index--;
  for (; index >= 0; index--) {
    const text = lines[index].trim();
    if (!COMMENT_LINE.test(text) && !text.endsWith('*/')) return false;
    if (SAYS_WHY_LONG.test(text)) return true;
  }
  return false;
}

/**
 * The line where the statement, property or class member holding the function begins: `export const x = f({ y: () =>`
 * carries its comment above `export const`.
 */
function anchorLine(node: ts.Node, source: ts.SourceFile): number {
  let anchor: ts.Node = node;
  while (
    anchor.parent &&
    !ts.isSourceFile(anchor.parent) &&
    !ts.isBlock(anchor.parent) &&
    !ts.isPropertyAssignment(anchor) &&
    !ts.isClassElement(anchor)
  ) {
    anchor = anchor.parent;
  }
  return source.getLineAndCharacterOfPosition(anchor.getStart(source)).line;
}

function longFunctionsIn(file: string, max: number): LongFunction[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) {
        const name = nameOf(node as ts.FunctionLikeDeclaration, source);
        const commented = saysWhyLong(lines, first) || saysWhyLong(lines, anchorLine(node, source));
        found.push({ file, line: first + 1, lines: last - first + 1, name, commented });
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const args = process.argv.slice(2);
  const maxIndex = args.indexOf('--max');
  const max = maxIndex >= 0 ? Number(args[maxIndex + 1]) : 80;
  const all = sourceFiles().flatMap((file) => longFunctionsIn(file, max));
  const shown = args.includes('--uncommented') ? all.filter((entry) => !entry.commented) : all;
  for (const entry of shown) {
    const mark = entry.commented ? 'says why' : 'NO REASON';
    console.log(`${mark} ${String(entry.lines).padStart(4)} ${entry.file}:${entry.line} ${entry.name}`);
  }
  const uncommented = all.filter((entry) => !entry.commented).length;
  console.log(
    `${all.length} functions over ${max} lines, ${uncommented} without a comment saying why ("Long because …")`,
  );
}

main();
