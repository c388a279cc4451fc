/**
 * The scan's findings about one item: each with its severity, rule, message,
 * the field it is in, and that field's text with the finding's exact span
 * marked (invisible characters escaped, as the excerpt shows them).
 */
import type { ScanFinding } from '../../../../shared/model/scanViews.js';
import { Badge } from '../../components/HealthBadge.js';
import { spanInText } from './findingSpan.js';
import { SEVERITY_TONE } from './reviewWords.js';

/** The field's text around the finding, its span marked; the excerpt alone when the text is not at hand. */
function FindingText({ finding, text }: { finding: ScanFinding; text: string | undefined }) {
  const shown = spanInText(text, finding);
  return (
    <pre className="finding-text" aria-label={`Text of ${finding.field}`}>
      {shown ? (
        <>
          {shown.cutBefore && '…'}
          {shown.before}
          <mark>{shown.match}</mark>
          {shown.after}
          {shown.cutAfter && '…'}
        </>
      ) : (
        <mark>{finding.excerpt}</mark>
      )}
    </pre>
  );
}

/** `findings` of item `name` (`texts`: the whole text of each field, by dotted path). */
export function FindingList({
  name,
  findings,
  texts,
}: {
  name: string;
  findings: readonly ScanFinding[];
  texts: Readonly<Record<string, string>> | undefined;
}) {
  if (findings.length === 0) return <p className="small muted">No findings.</p>;
  return (
    <ul className="findings" aria-label={`Findings of ${name}`}>
      {findings.map((finding) => (
        <li key={`${finding.rule} ${finding.field} ${finding.span.start} ${finding.span.end}`} className="stack">
          <div className="row">
            <Badge tone={SEVERITY_TONE[finding.severity]}>{finding.severity}</Badge>
            <span className="chip">{finding.rule}</span>
            <span>{finding.message}</span>
            <span className="small muted">
              in <code>{finding.field}</code>
            </span>
          </div>
          <FindingText finding={finding} text={texts?.[finding.field]} />
        </li>
      ))}
    </ul>
  );
}
