import { Icon } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { render, waitFor } from '@testing-library/react';
import { iconFiles } from '../../test/iconFiles';
import { fetchIconPaths, setupIcons } from './icons';

// As in the production build (webpack.config.ts): Blueprint's loader checks names with iconNameCheck.ts.
jest.mock('@blueprintjs/icons/lib/cjs/iconNames', () => jest.requireActual('./iconNameCheck'));

const { requested, fetchFn: fakeFetch } = iconFiles({ '/icons/16px/download.abc123.json': ['M1 1h14v14H1z'] });

const drawn = (container: HTMLElement, name: string) => container.querySelector(`svg[data-icon="${name}"]`);

let errors: jest.SpyInstance;
beforeAll(() => setupIcons(fetchIconPaths('abc123', fakeFetch)));
beforeEach(() => {
  requested.length = 0;
  errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

it('draws an icon fetched by its name', async () => {
  const { container } = render(<Icon icon="download" />);
  await waitFor(() => expect(drawn(container, 'download')).not.toBeNull());
  expect(requested).toEqual(['/icons/16px/download.abc123.json']);
  expect(errors).not.toHaveBeenCalled();
});

it('leaves the placeholder, with a console error, for a well-formed name that has no icon file', async () => {
  const { container } = render(<Icon icon={'no-such-icon' as IconName} />);
  await waitFor(() =>
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("icon 'no-such-icon'"), expect.anything()),
  );
  expect(requested).toEqual(['/icons/16px/no-such-icon.abc123.json']);
  expect(container.querySelector('[data-icon="no-such-icon"]')).not.toBeNull();
  expect(drawn(container, 'no-such-icon')).toBeNull();
});

it('requests nothing for a name that is not of the form, and says it is unknown', async () => {
  render(<Icon icon={'../api/me' as IconName} />);
  await waitFor(() => expect(errors).toHaveBeenCalledWith(expect.stringContaining("Unknown icon '../api/me'")));
  expect(requested).toEqual([]);
});
