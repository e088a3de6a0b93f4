/**
 * What Blueprint's icon loader checks an icon's name against, in place of its list of every icon name: webpack
 * puts this module where `@blueprintjs/icons`' loader imports `./iconNames` (webpack.config.ts), which keeps that
 * list (with the case conversions that build it, 9.7 KiB gzipped) out of the first load. Names come from code typed
 * with `IconName`, and which icons exist is known where their files are served: a name of the right form whose file
 * is missing fails to load (src/app/icons.ts) as an unknown name did, with a console error and no icon drawn. The
 * form also keeps a name from being anything but one segment of the icon file's URL.
 */
const iconNameForm = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const IconNamesSet: Pick<ReadonlySet<string>, 'has'> = {
  has: (name) => typeof name === 'string' && iconNameForm.test(name),
};

/**
 * The loader reads the whole list only in `Icons.loadAll`, which would load every icon one request at a time; the
 * app never calls it, and a call fails loudly rather than loading nothing.
 */
export const IconNames: Record<string, string> = new Proxy(
  {},
  {
    ownKeys() {
      throw new Error('Icons.loadAll is not available: the list of icon names is not in the build (iconNameCheck.ts)');
    },
  },
);
