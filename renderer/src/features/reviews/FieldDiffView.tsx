/**
 * One changed field of a tool, old and new side by side: removed parts
 * struck through (red) on the approved side, added parts marked (green) on
 * the offered side. A new tool has no approved side.
 */
import type { DiffPart, FieldDiff } from '../../../../shared/model/definitionDiff.js';
import { diffSides, FIELD_LABEL } from './diffSides.js';

function Parts({ parts }: { parts: readonly DiffPart[] }) {
  return (
    <>
      {parts.map((part, at) =>
        part.removed ? (
          <del key={at}>{part.value}</del>
        ) : part.added ? (
          <ins key={at}>{part.value}</ins>
        ) : (
          <span key={at}>{part.value}</span>
        ),
      )}
    </>
  );
}

function Side({ label, parts, absent }: { label: string; parts: readonly DiffPart[]; absent: boolean }) {
  return (
    <div aria-label={label} role="group">
      <div className="small muted">{label}</div>
      <pre>{absent ? <span className="muted">(none)</span> : <Parts parts={parts} />}</pre>
    </div>
  );
}

/** `diff` of tool `tool`; `isNew`: the tool was never approved (no old side). */
export function FieldDiffView({ tool, diff, isNew }: { tool: string; diff: FieldDiff; isNew: boolean }) {
  const { before, after } = diffSides(diff);
  const label = FIELD_LABEL[diff.field];
  return (
    <section className="field-diff" aria-label={`${label} of ${tool}`}>
      <h4>{label}</h4>
      <div className={isNew ? 'diff single' : 'diff'}>
        {!isNew && <Side label="Approved" parts={before} absent={diff.before === undefined} />}
        <Side label={isNew ? 'New' : 'Now offered'} parts={after} absent={diff.after === undefined} />
      </div>
    </section>
  );
}
