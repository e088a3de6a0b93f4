import fs from 'node:fs';
import path from 'node:path';
import { splitStyles } from '../scripts/blueprintCss';

// Read from the package itself (Jest maps imports of style sheets to an empty module).
const blueprintCss = () =>
  fs.readFileSync(path.join(__dirname, '../node_modules/@blueprintjs/core/lib/css/blueprint.css'), 'utf8');

/** Every selector of a part's plain rules, at any depth (inside @media too), one per entry. */
function selectors(css: string): string[] {
  return [...css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/(?:^|[{}])\s*([^@{};][^{};]*)\{/g)]
    .flatMap((match) => match[1].split(/,(?![^(]*\))/))
    .map((selector) => selector.trim())
    .filter(Boolean);
}

describe('splitStyles', () => {
  it('keeps a rule for the first screens when one of its selectors can match there', () => {
    const { first, later } = splitStyles(
      '.bp6-button{color:red}.bp6-menu-item,.bp6-spinner{margin:0}.bp6-button:not(.bp6-menu-item){x:1}',
    );
    expect(first).toBe('.bp6-button{color:red}\n.bp6-spinner{margin:0}\n.bp6-button:not(.bp6-menu-item){x:1}');
    expect(later).toBe('.bp6-menu-item{margin:0}');
  });

  it('moves dark-theme rules, icon glyphs and @media rules of later components, and keeps @charset first', () => {
    const { first, later } = splitStyles(
      '@charset "UTF-8";\n.bp6-dark .bp6-tag{a:1}\n.bp6-icon-add::before{content:"\\f}"}\n' +
        '.bp6-icon-standard{b:2}\n@media (forced-colors:active){.bp6-tree{c:3}.bp6-toast{d:4}}',
    );
    expect(first).toBe('@charset "UTF-8";\n.bp6-icon-standard{b:2}\n@media (forced-colors:active){.bp6-toast{d:4}}');
    expect(later).toBe(
      '.bp6-dark .bp6-tag{a:1}\n.bp6-icon-add::before{content:"\\f}"}\n@media (forced-colors:active){.bp6-tree{c:3}}',
    );
  });

  it("parts Blueprint's own sheet without losing a selector, the first screens' components in the first", () => {
    const css = blueprintCss();
    const { first, later } = splitStyles(css);
    expect(selectors(first).length + selectors(later).length).toBe(selectors(css).length);
    for (const component of ['.bp6-button', '.bp6-card', '.bp6-non-ideal-state', '.bp6-spinner', '.bp6-toast']) {
      expect(selectors(first)).toContain(component);
    }
    for (const component of ['.bp6-menu-item', '.bp6-tag', '.bp6-input', '.bp6-popover', '.bp6-tab']) {
      expect(selectors(first)).not.toContain(component);
      expect(selectors(later)).toContain(component);
    }
    expect(first.length).toBeLessThan(css.length * 0.6);
  });
});
