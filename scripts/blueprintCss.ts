import { type IconName, IconNames } from '@blueprintjs/icons/lib/cjs/iconNames';
import type { LoaderContext } from 'webpack';

/**
 * Blueprint's style sheet (548 KiB, 54 KiB gzipped) in two parts: what the first screens draw (sign-in, the
 * spinners and error pages of the app's root, toasts), in the first load, and the rules of every other component,
 * which the lazily loaded routes bring with them (src/app/router.tsx). A rule moves to the second part only when
 * each of its selectors needs a class of a component listed here, so it cannot match anything on a first screen; a
 * first screen that starts drawing one of these components must take it off this list.
 */
export const LATER_COMPONENTS = [
  'alert',
  'breadcrumb',
  'breadcrumbs',
  'callout',
  'card-list',
  'checkbox',
  'collapse',
  'context-menu',
  'control',
  'control-card',
  'control-group',
  'dialog',
  'divider',
  'drawer',
  'editable-text',
  'entity-title',
  'file-input',
  'file-upload-input',
  'form-content',
  'form-group',
  'form-helper-text',
  'html-select',
  'hotkey',
  'hotkey-column',
  'hotkey-dialog',
  'html-table',
  'input',
  'input-group',
  'key',
  'key-combo',
  'label',
  'link',
  'menu',
  'multistep-dialog',
  'navbar',
  'numeric-input',
  'overflow-list',
  'panel-stack',
  'panel-stack2',
  'popover',
  'progress-bar',
  'radio',
  'section',
  'segmented-control',
  'select',
  'skeleton',
  'slider',
  'submenu',
  'switch',
  'tab',
  'tab-list',
  'tab-panel',
  'tabs',
  'tag',
  'tag-input',
  'compound-tag',
  'tooltip',
  'tree',
];

const PREFIX = 'bp6-';

/** Glyph rules of the icon font (`.bp6-icon-add::before`): an icon of a first screen is drawn from its paths. */
const iconNameClasses = new Set(Object.values(IconNames as Record<string, IconName>).map((name) => `bp6-icon-${name}`));

/** A class that only elements of a later component carry (the component's own class or one of its parts). */
function isLaterClass(name: string): boolean {
  if (iconNameClasses.has(name)) return true;
  if (!name.startsWith(PREFIX)) return false;
  const rest = name.slice(PREFIX.length);
  return LATER_COMPONENTS.some((component) => rest === component || rest.startsWith(`${component}-`));
}

/** Splits at top-level commas (not those inside brackets or parentheses). */
function splitList(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(selector.slice(start).trim());
  return parts;
}

/** The classes an element must carry to match: none from `:not(…)`, `:is(…)` and the like, nor from attributes. */
function requiredClasses(selector: string): string[] {
  let flat = selector.replace(/\[[^\]]*\]/g, '');
  // Innermost parentheses first, until none are left.
  for (let previous = ''; previous !== flat;) {
    previous = flat;
    flat = flat.replace(/:[\w-]+\([^()]*\)/g, '');
  }
  return [...flat.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]);
}

const isLaterSelector = (selector: string) => requiredClasses(selector).some(isLaterClass);

interface Block {
  /** The selector or at-rule prelude, as written. */
  prelude: string;
  /** The text between the braces. */
  body: string;
}

/** The top-level blocks of a style sheet (comments dropped), with each block's body unparsed. */
function blocks(css: string): Block[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const out: Block[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    const semicolon = text.indexOf(';', i);
    // A statement at-rule (@charset, @import): no block.
    if (semicolon !== -1 && (open === -1 || semicolon < open)) {
      out.push({ prelude: text.slice(i, semicolon).trim(), body: '' });
      i = semicolon + 1;
      continue;
    }
    if (open === -1) break;
    let depth = 1;
    let j = open + 1;
    let quote = '';
    for (; j < text.length && depth > 0; j++) {
      const char = text[j];
      if (quote) {
        if (char === '\\') j++;
        else if (char === quote) quote = '';
      } else if (char === '"' || char === "'") quote = char;
      else if (char === '{') depth++;
      else if (char === '}') depth--;
    }
    out.push({ prelude: text.slice(i, open).trim(), body: text.slice(open + 1, j - 1) });
    i = j;
  }
  return out.filter((block) => block.prelude !== '' || block.body.trim() !== '');
}

const NESTING_AT_RULES = /^@(media|supports|layer|container)\b/;

/** Splits a style sheet's rules into what the first screens need and the rest, each in its original order. */
export function splitStyles(css: string): { first: string; later: string } {
  const first: string[] = [];
  const later: string[] = [];
  for (const block of blocks(css)) {
    if (!block.body && block.prelude.startsWith('@')) {
      first.push(`${block.prelude};`);
    } else if (NESTING_AT_RULES.test(block.prelude)) {
      const inner = splitStyles(block.body);
      if (inner.first.trim()) first.push(`${block.prelude}{${inner.first}}`);
      if (inner.later.trim()) later.push(`${block.prelude}{${inner.later}}`);
    } else if (block.prelude.startsWith('@')) {
      // @keyframes, @font-face: small, and named from rules of both parts.
      first.push(`${block.prelude}{${block.body}}`);
    } else {
      const selectors = splitList(block.prelude);
      const now = selectors.filter((selector) => !isLaterSelector(selector));
      const rest = selectors.filter(isLaterSelector);
      if (now.length) first.push(`${now.join(',')}{${block.body}}`);
      if (rest.length) later.push(`${rest.join(',')}{${block.body}}`);
    }
  }
  return { first: first.join('\n'), later: later.join('\n') };
}

/**
 * Webpack loader for Blueprint's style sheet imported as `blueprint.css?part=first` or `?part=later`: gives that
 * part. With `{split: false}` (the development server) the first part is the whole sheet and the later one empty.
 */
// eslint-disable-next-line import-x/no-default-export -- webpack runs a loader module's default export
export default function blueprintCssLoader(this: LoaderContext<{ split: boolean }>, source: string): string {
  const part = new URLSearchParams(this.resourceQuery).get('part');
  if (part !== 'first' && part !== 'later') throw new Error(`blueprint.css: unknown part ${String(part)}`);
  if (!this.getOptions().split) return part === 'first' ? source : '';
  return splitStyles(source)[part];
}
