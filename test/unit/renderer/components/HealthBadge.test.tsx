// @vitest-environment jsdom
/**
 * Health badges read without colour: each status has its own icon and words.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendStatus } from '../../../../shared/model/health.js';
import { HealthBadge, STATUS_LOOK } from '../../../../renderer/src/components/HealthBadge.js';

const STATUSES: BackendStatus[] = ['up', 'degraded', 'down', 'connecting', 'needs-authorization', 'disabled', 'idle'];

describe('HealthBadge', () => {
  afterEach(cleanup);

  it.each(STATUSES)('shows %s as text and an icon, not colour alone', (status) => {
    render(<HealthBadge status={status} />);
    const look = STATUS_LOOK[status];
    const badge = screen.getByRole('img', { name: `Status: ${look.label}` });
    expect(badge).toHaveProperty('textContent', `${look.icon}${look.label}`);
    expect(badge.getAttribute('aria-label')).toBe(`Status: ${look.label}`);
    expect(badge.querySelector('[aria-hidden="true"]')?.textContent).toBe(look.icon);
    expect(badge.className).toContain(`tone-${look.tone}`);
  });

  it('is not a live region (a screen of cards would announce every flap)', () => {
    const { container } = render(<HealthBadge status="down" />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(container.querySelector('[aria-live], [role="status"], [role="alert"]')).toBeNull();
  });

  it('gives every status a distinct icon and label', () => {
    expect(new Set(STATUSES.map((s) => STATUS_LOOK[s].icon)).size).toBe(STATUSES.length);
    expect(new Set(STATUSES.map((s) => STATUS_LOOK[s].label)).size).toBe(STATUSES.length);
  });
});
