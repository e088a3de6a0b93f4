import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { type Workspace } from '../../../contracts/workspaces';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

const workspace = (id: number, displayName: string): Workspace => ({
  id,
  name: displayName,
  displayName,
  status: 'active',
  role: 'admin',
  agency: false,
  licenseId: null,
  licenseType: null,
  licenseHolder: null,
  logo: null,
  locale: 'nl_NL',
  createdAt: '2026-01-01T00:00:00Z',
  features: [],
  activationRequested: false,
});

describe('workspace switcher (spec 1 §2.5)', () => {
  it('is disabled with fewer than 2 workspaces', () => {
    const only = workspace(1, 'Solo');
    renderWithProviders(<WorkspaceSwitcher workspaces={[only]} current={only} />);
    expect(screen.getByRole('button', { name: /^Switch workspace/ }).hasAttribute('disabled')).toBe(true);
  });

  it('lists workspaces by display name, without search up to 10', () => {
    const list = [workspace(1, 'Zeta'), workspace(2, 'alpha'), workspace(3, 'Beta')];
    renderWithProviders(<WorkspaceSwitcher workspaces={list} current={list[0]} />);
    fireEvent.click(screen.getByRole('button', { name: /^Switch workspace/ }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['alpha', 'Beta', 'Zeta']);
    expect(screen.queryByLabelText('Search workspaces')).toBeNull();
  });

  it('is searchable above 10 workspaces', () => {
    const list = Array.from({ length: 11 }, (_, i) => workspace(i + 1, `Shop ${String(i + 1).padStart(2, '0')}`));
    renderWithProviders(<WorkspaceSwitcher workspaces={list} current={list[0]} />);
    fireEvent.click(screen.getByRole('button', { name: /^Switch workspace/ }));
    expect(screen.getAllByRole('menuitem')).toHaveLength(11);
    fireEvent.change(screen.getByLabelText('Search workspaces'), { target: { value: 'shop 1' } });
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Shop 10', 'Shop 11']);
  });
});
