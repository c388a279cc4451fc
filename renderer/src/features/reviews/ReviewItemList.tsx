/**
 * Every tool, prompt and resource a server under review lists, each with the
 * scan's findings, ordered and coloured by their worst severity (high first);
 * items hidden from clients (all of a quarantined server's, a tool whose
 * change is held) are marked so. The findings are counted by severity on top
 * and under each item, where they stay folded until opened: a server with
 * dozens of findings reads as a summary first, not a wall of excerpts.
 */
import type { ReviewItemView } from '../../../../shared/model/reviewViews.js';
import type { ScanItemKind } from '../../../../shared/model/scanViews.js';
import { escapeInvisible } from '../../../../shared/model/invisibleText.js';
import { Badge } from '../../components/HealthBadge.js';
import { FindingList } from './FindingList.js';
import { SEVERITY_TONE, severityCounts, severityRank, worstSeverity } from './reviewWords.js';

const KIND_WORD: Record<ScanItemKind, string> = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  resourceTemplate: 'resource template',
  skill: 'skill',
};

/** Whether `item` is hidden from clients: every item of a quarantined server, or a tool with a held change. */
export function isHidden(item: ReviewItemView, quarantined: boolean, held: ReadonlySet<string>): boolean {
  return quarantined || (item.kind === 'tool' && held.has(item.name));
}

/** The items of a review. */
export function ReviewItemList({
  items,
  quarantined,
  held,
}: {
  items: readonly ReviewItemView[];
  quarantined: boolean;
  held: ReadonlySet<string>;
}) {
  const flagged = items.filter((item) => item.findings.length > 0).length;
  const all = items.flatMap((item) => item.findings);
  // Worst first; a stable sort keeps the server's order among equals.
  const ordered = [...items].sort(
    (a, b) => severityRank(worstSeverity(a.findings)) - severityRank(worstSeverity(b.findings)),
  );
  return (
    <section className="panel stack" aria-label="Tools, prompts and resources">
      <h2>
        Tools, prompts and resources ({items.length}){flagged > 0 ? `, ${flagged} with findings` : ''}
      </h2>
      {all.length > 0 && (
        <p aria-label="Findings by severity">
          {all.length} {all.length === 1 ? 'finding' : 'findings'}: {severityCounts(all)}
        </p>
      )}
      {items.length === 0 && <p className="muted">Nothing listed yet.</p>}
      {ordered.map((item) => {
        const worst = worstSeverity(item.findings);
        return (
          <article
            key={`${item.kind} ${item.name}`}
            className={`review-item stack${worst ? ` severity-${worst} tone-border-${SEVERITY_TONE[worst]}` : ''}`}
            aria-label={`${KIND_WORD[item.kind]} ${item.name}`}
          >
            <div className="row">
              <code>{item.name}</code>
              <span className="chip">{KIND_WORD[item.kind]}</span>
              {isHidden(item, quarantined, held) && <Badge tone="warn">Hidden from clients</Badge>}
            </div>
            {item.description !== undefined && (
              <p className="small review-description">{escapeInvisible(item.description)}</p>
            )}
            {item.findings.length === 0 ? (
              <p className="small muted">No findings.</p>
            ) : (
              <details className="item-findings">
                <summary>
                  {item.findings.length} {item.findings.length === 1 ? 'finding' : 'findings'}:{' '}
                  {severityCounts(item.findings)}
                </summary>
                <FindingList name={item.name} findings={item.findings} texts={item.texts} />
              </details>
            )}
          </article>
        );
      })}
    </section>
  );
}
