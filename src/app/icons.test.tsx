import { Icon } from '@blueprintjs/core';
import { Icons } from '@blueprintjs/icons';
import { render, waitFor } from '@testing-library/react';
import { iconFiles } from '../../test/iconFiles';
import { fetchIconPaths, firstPaintIcons, registerIcons, setupIcons } from './icons';
import { shellIcons } from './shellIcons';

/** The path data drawn by the icon named `name`, or null while the icon is not drawn as an SVG. */
const drawnPaths = (container: HTMLElement, name: string) => {
  const svg = container.querySelector(`svg[data-icon="${name}"]`);
  return svg ? Array.from(svg.querySelectorAll('path'), (path) => path.getAttribute('d')) : null;
};

const { requested, fetchFn: fakeFetch } = iconFiles({ '/icons/16px/download.abc123.json': ['M1 1h14v14H1z'] });

beforeAll(() => setupIcons(fetchIconPaths('abc123', fakeFetch)));
beforeEach(() => {
  requested.length = 0;
});

it('draws the sign-in icon on the first render, from the bundle, without a request', () => {
  const { container, unmount } = render(<Icon icon="log-in" />);
  // Checked right after the first render: nothing to wait for.
  expect(drawnPaths(container, 'log-in')).toEqual(firstPaintIcons['log-in']);
  expect(drawnPaths(container, 'log-in')?.length).toBeGreaterThan(0);
  unmount();
  expect(requested).toEqual([]);
});

it("draws the shell's icons on its first render once its chunk registered them, without a request", async () => {
  await registerIcons(shellIcons);
  for (const name of ['dashboard', 'caret-down'] as const) {
    const { container, unmount } = render(<Icon icon={name} />);
    expect(drawnPaths(container, name)).toEqual(shellIcons[name]);
    expect(drawnPaths(container, name)?.length).toBeGreaterThan(0);
    unmount();
  }
  expect(requested).toEqual([]);
});

it('fetches any other icon on its own, by name, size and the build hash, and then draws it', async () => {
  const { container } = render(<Icon icon="download" />);
  // Until its paths arrive the icon is Blueprint's placeholder, not an SVG.
  expect(drawnPaths(container, 'download')).toBeNull();
  await waitFor(() => expect(drawnPaths(container, 'download')).toEqual(['M1 1h14v14H1z']));
  expect(requested).toEqual(['/icons/16px/download.abc123.json']);
  expect(Icons.getPaths('download', 16)).toEqual(['M1 1h14v14H1z']);
});

it('leaves the placeholder when an icon file cannot be loaded', async () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const { container } = render(<Icon icon="upload" />);
    await waitFor(() =>
      expect(errors).toHaveBeenCalledWith(expect.stringContaining("icon 'upload'"), expect.anything()),
    );
    expect(requested).toEqual(['/icons/16px/upload.abc123.json']);
    expect(container.querySelector('[data-icon="upload"]')).not.toBeNull();
    expect(drawnPaths(container, 'upload')).toBeNull();
  } finally {
    errors.mockRestore();
  }
});
