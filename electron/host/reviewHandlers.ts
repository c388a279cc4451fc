/**
 * Quarantine and reviewed changes on the contract: every server's review
 * state, one server's review (launch line, sandbox, items with the scan's
 * findings, held changes with their diffs), the scan's reports, and the
 * user's approvals of a server (confirming high findings) or of one held
 * change, putting a server back under review, and starting a quarantined one
 * unsandboxed where no sandbox runs. The core does the work
 * (ReviewsService); params arrive validated by `dispatch`, errors leave as data.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import type { Switchboard } from '../core/api/index.js';

type ReviewMethods =
  | 'reviews.list'
  | 'reviews.get'
  | 'reviews.scans'
  | 'reviews.approveServer'
  | 'reviews.approveChange'
  | 'reviews.quarantine'
  | 'reviews.startUnsandboxed';

export function reviewHandlers(core: Switchboard): Pick<CoreHandlers, ReviewMethods> {
  return {
    'reviews.list': async () => core.reviews.list(),
    'reviews.get': async ({ id }) => core.reviews.review(id),
    'reviews.scans': async ({ id }) => core.reviews.scans(id),
    'reviews.approveServer': async ({ id, confirmHigh, holdFlagged }) =>
      core.reviews.approveServer(id, {
        ...(confirmHigh === undefined ? {} : { confirmHigh }),
        ...(holdFlagged === undefined ? {} : { holdFlagged }),
      }),
    'reviews.quarantine': async ({ id }) => core.reviews.quarantineAgain(id),
    'reviews.startUnsandboxed': async ({ id }) => core.reviews.startUnsandboxed(id),
    'reviews.approveChange': async ({ id, tool }) => core.reviews.approveChange(id, tool),
  };
}
