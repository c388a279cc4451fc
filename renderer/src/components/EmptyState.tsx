/**
 * What a screen shows when it has nothing yet, and what to do about it.
 */
import type { ReactNode } from 'react';

/** An empty state with a title, a hint and optional action buttons. */
export function EmptyState({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="empty">
      <h3>{title}</h3>
      {children && <p>{children}</p>}
      {actions && (
        <div className="row" style={{ justifyContent: 'center' }}>
          {actions}
        </div>
      )}
    </div>
  );
}
