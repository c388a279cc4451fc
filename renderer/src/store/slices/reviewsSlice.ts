/**
 * Quarantine and reviewed changes (issue #25): every server's review state
 * (reviews.list, always kept fresh: the Servers screen lists those awaiting
 * review), the one server the Review screen is open on (reviews.get, fetched
 * only while shown), and the two approvals. An approval's answer is the
 * server's new review, shown at once; the core's events re-fetch the rest.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { ReviewsSlice, SliceCreator } from '../types.js';

export type { ReviewsSlice };

/** Creates the reviews slice. */
export function createReviewsSlice(client: CoreClient): SliceCreator<ReviewsSlice> {
  return (set, get) => ({
    reviews: idle(),
    reviewServer: undefined,
    review: idle(),
    fetchReviews: () =>
      fetchRemote(
        () => get().reviews,
        (reviews) => set({ reviews }),
        () => client.call('reviews.list'),
      ),
    async fetchReview() {
      const id = get().reviewServer;
      if (id === undefined) return;
      await fetchRemote(
        () => get().review,
        (review) => set({ review }),
        () => client.call('reviews.get', { id }),
        () => get().reviewServer === id,
      );
    },
    openReview(id) {
      if (get().reviewServer !== id) set({ reviewServer: id, review: idle() });
      get().setScreen('review');
      get().invalidate('review');
    },
    async approveServer(id, options = {}) {
      const outcome = await client.call('reviews.approveServer', {
        id,
        ...(options.confirmHigh ? { confirmHigh: true } : {}),
        ...(options.holdFlagged ? { holdFlagged: true } : {}),
      });
      if (outcome.ok && get().reviewServer === id)
        set({ review: { data: outcome.result, error: undefined, loading: false } });
      if (outcome.ok) get().invalidate('reviews', 'backends');
      return outcome;
    },
    async quarantineServer(id) {
      const outcome = await client.call('reviews.quarantine', { id });
      if (outcome.ok && get().reviewServer === id)
        set({ review: { data: outcome.result, error: undefined, loading: false } });
      if (outcome.ok) get().invalidate('reviews', 'backends');
      return outcome;
    },
    async approveChange(id, tool) {
      const outcome = await client.call('reviews.approveChange', { id, tool });
      if (outcome.ok && get().reviewServer === id)
        set({ review: { data: outcome.result, error: undefined, loading: false } });
      if (outcome.ok) get().invalidate('reviews', 'backends', 'pins');
      return outcome;
    },
  });
}
