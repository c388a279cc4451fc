// @vitest-environment jsdom
/**
 * A server's review state where the user meets it first: its card says
 * "Quarantined — review" with the reason, the changes held and the scan's
 * summary (an alarm only for high; none for low); the Servers screen lists
 * the servers awaiting review (reviews.list), the sidebar counts them; the
 * badge and the list both open the Review screen on that server.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../../../renderer/src/app/App.js';
import type { ServerReviewSummary } from '../../../../../shared/model/reviewViews.js';
import { renderWithStore } from '../../renderWithStore.js';
import { ADDER_REVIEW, backend, MUT_REVIEW } from './reviewFixtures.js';

const SCANNED = '2026-01-01T00:00:00.000Z';
const BACKENDS = [
  backend('adder', {
    quarantined: true,
    review: { quarantined: true, reason: 'high-finding', pending: 0 },
    scan: { scannedAt: SCANNED, findings: 2, highest: 'high' },
  }),
  backend('mut', {
    quarantined: false,
    review: { quarantined: false, pending: 2 },
    scan: { scannedAt: SCANNED, findings: 1, highest: 'low' },
  }),
  backend('clean', {
    quarantined: false,
    review: { quarantined: false, pending: 0 },
    scan: { scannedAt: SCANNED, findings: 0 },
  }),
];
const SUMMARIES: ServerReviewSummary[] = [
  { server: 'adder', quarantined: true, reason: 'high-finding', pending: 0, scan: BACKENDS[0]!.health.scan! },
  { server: 'mut', quarantined: false, pending: 2, scan: BACKENDS[1]!.health.scan! },
  { server: 'clean', quarantined: false, pending: 0, scan: BACKENDS[2]!.health.scan! },
];

const show = () =>
  renderWithStore(<App />, (client) => {
    client.handle('backends.list', () => BACKENDS);
    client.handle('reviews.list', () => SUMMARIES);
    client.handle('reviews.get', ({ id }) => (id === 'adder' ? ADDER_REVIEW : MUT_REVIEW));
  });

const reviewOf = (id: string) =>
  within(screen.getByRole('article', { name: id })).queryByRole('group', { name: `Review of ${id}` });

describe("a server's review state on the Servers screen", () => {
  afterEach(cleanup);

  it('says on each card why it is quarantined, the changes held and the scan, alarmed only for high', async () => {
    await show();
    const adder = within(reviewOf('adder')!);
    expect(adder.getByRole('button', { name: 'Quarantined — review' }).className).toContain('tone-bad');
    expect(adder.getByText('a high-severity finding')).toBeTruthy();
    expect(adder.getByRole('button', { name: 'Scan: 2 findings, highest high' }).className).toContain('tone-bad');

    const mut = within(reviewOf('mut')!);
    expect(mut.queryByRole('button', { name: 'Quarantined — review' })).toBeNull();
    expect(mut.getByRole('button', { name: '2 changes held — review' })).toBeTruthy();
    // A low finding is said plainly, in the neutral tone.
    expect(mut.getByText('Scan: 1 finding, highest low').className).toContain('tone-idle');

    const clean = within(reviewOf('clean')!);
    // The scan pill is its only button: it opens the review.
    expect(clean.queryAllByRole('button').map((button) => button.textContent)).toEqual(['Scan: no findings']);
    expect(clean.getByText('Scan: no findings').className).toContain('tone-idle');
  });

  it('lists the servers awaiting review, counts them in the sidebar, and opens a review from the list', async () => {
    const user = userEvent.setup();
    const { client } = await show();
    const list = within(screen.getByRole('region', { name: 'Awaiting review' }));
    expect(list.getByRole('heading').textContent).toBe('Awaiting review (2)');
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'adderquarantined: a high-severity finding · Scan: 2 findings, highest highReview',
      'mut2 changes held · Scan: 1 finding, highest lowReview',
    ]);
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(nav.getByLabelText('2 awaiting review').textContent).toBe('2');

    await user.click(list.getByRole('button', { name: 'Review mut' }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Review mut');
    expect(nav.getByRole('button', { name: /^Servers/ }).getAttribute('aria-current')).toBe('page');
    expect(client.calls.filter((c) => c.method === 'reviews.get').map((c) => c.params)).toEqual([{ id: 'mut' }]);
  });

  it("opens the Review screen from the card's badge", async () => {
    const user = userEvent.setup();
    const { client, store } = await show();
    await user.click(within(reviewOf('adder')!).getByRole('button', { name: 'Quarantined — review' }));
    await store.getState().settled();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Review adder');
    expect(await screen.findByText('/srv/adder.mjs')).toBeTruthy();
    expect(client.calls.filter((c) => c.method === 'reviews.get').map((c) => c.params)).toEqual([{ id: 'adder' }]);
  });

  it('follows a change held after the cards were drawn (pinsChanged), before health says so', async () => {
    let pending = 0;
    const { client, store } = await renderWithStore(<App />, (c) => {
      c.handle('backends.list', () => [BACKENDS[2]!]);
      c.handle('reviews.list', () => [{ ...SUMMARIES[2]!, pending }]);
    });
    expect(within(reviewOf('clean')!).queryByRole('button', { name: /held/ })).toBeNull();
    pending = 1;
    act(() => client.emit('pinsChanged', {}));
    await act(() => store.getState().settled());
    expect(within(reviewOf('clean')!).getByRole('button', { name: '1 change held — review' })).toBeTruthy();
  });

  it('shows no list when nothing awaits review', async () => {
    await renderWithStore(<App />, (client) => {
      client.handle('backends.list', () => [BACKENDS[2]!]);
      client.handle('reviews.list', () => [SUMMARIES[2]!]);
    });
    expect(screen.queryByRole('region', { name: 'Awaiting review' })).toBeNull();
    expect(screen.queryByLabelText(/awaiting review/)).toBeNull();
  });
});
