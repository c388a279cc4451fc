// @vitest-environment jsdom
/** A profile's tool exposure on the Clients screen: what its list holds and costs, and changing it. */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../../../shared/model/views.js';
import { approxTokens } from '../../../../../renderer/src/features/clients/ExposureCell.js';
import { ProfilesPanel } from '../../../../../renderer/src/features/clients/ProfilesPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

describe('profile exposure', () => {
  afterEach(cleanup);

  it('rounds token counts the way people read them', () => {
    expect(approxTokens(346)).toBe('~346');
    expect(approxTokens(1234)).toBe('~1.2k');
    expect(approxTokens(101_961)).toBe('~102k');
  });

  it('shows what each profile lists and costs, and sets its exposure', async () => {
    const user = userEvent.setup();
    const profiles: ProfileView[] = [
      {
        id: 'cursor',
        name: 'Cursor',
        hasToken: true,
        tools: { exposure: 'auto', inForce: 'all', listed: 40, tokens: 11_200, reachable: 40 },
      },
      { id: 'bot', name: 'Bot', hasToken: true, tools: { inForce: 'search', listed: 2, tokens: 346, reachable: 527 } },
    ];
    const set: unknown[] = [];
    await renderWithStore(<ProfilesPanel />, (c) => {
      c.handle('profiles.list', () => structuredClone(profiles));
      c.handle('profiles.setExposure', (params) => {
        set.push(params);
        profiles[1]!.tools = { exposure: 'all', inForce: 'all', listed: 527, tokens: 101_961, reachable: 527 };
        c.emit('policyChanged', {});
      });
    });
    expect(await screen.findByText('40 tools, ~11k tokens')).toBeTruthy();
    expect(screen.getByText('search: 2 tools, ~346 tokens; 527 searchable')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Exposure of Cursor' }) as HTMLSelectElement).value).toBe('auto');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Exposure of Bot' }), 'all');
    expect(set).toEqual([{ id: 'bot', exposure: 'all' }]);
    await waitFor(() => expect(screen.getByText('527 tools, ~102k tokens')).toBeTruthy());
  });

  it('offers search+load and says when it is in force', async () => {
    const user = userEvent.setup();
    const profiles: ProfileView[] = [
      {
        id: 'claude',
        name: 'Claude',
        hasToken: true,
        tools: { exposure: 'search+load', inForce: 'search+load', listed: 2, tokens: 346, reachable: 527 },
      },
      {
        id: 'bot',
        name: 'Bot',
        hasToken: true,
        tools: { inForce: 'all', listed: 527, tokens: 101_961, reachable: 527 },
      },
    ];
    const set: unknown[] = [];
    await renderWithStore(<ProfilesPanel />, (c) => {
      c.handle('profiles.list', () => structuredClone(profiles));
      c.handle('profiles.setExposure', (params) => void set.push(params));
    });
    expect(await screen.findByText('search+load: 2 tools, ~346 tokens; 527 searchable')).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Exposure of Bot' });
    expect(screen.getAllByRole('option', { name: 'search + load found tools' })).toHaveLength(2);
    await user.selectOptions(select, 'search+load');
    expect(set).toEqual([{ id: 'bot', exposure: 'search+load' }]);
  });
});
