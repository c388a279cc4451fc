/**
 * Modal dialogs: a title with a close button, focus moved in and kept there
 * (Tab and Shift+Tab wrap), Escape, Cancel or the close button closes, focus
 * returns to where it was. A dialog with unsaved edits (`dirty`) never loses
 * them to a stray click outside or Escape: it asks first.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The focusable elements inside `root`, in tab order. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.hidden);
}

/** Where focus starts: the first field, else the primary button, else the first focusable after the close button. */
function initialFocus(root: HTMLElement): HTMLElement | undefined {
  return (
    root.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), select:not([disabled])') ??
    root.querySelector<HTMLElement>('button.primary:not([disabled])') ??
    focusables(root).find((element) => !element.classList.contains('dialog-close')) ??
    focusables(root)[0]
  );
}

/** Props of {@link Dialog}. */
export interface DialogProps {
  title: string;
  /** Closes the dialog (Cancel, the close button, Escape, a click outside; the last two ask first when dirty). */
  onClose: () => void;
  /** Whether the dialog holds edits that closing would throw away. */
  dirty?: boolean;
  /** Adds a Cancel button at the bottom (for content without its own). */
  cancel?: boolean;
  children: ReactNode;
}

/** A modal dialog with a title; see the module comment. */
export function Dialog({ title, onClose, dirty = false, cancel = false, children }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    if (ref.current) initialFocus(ref.current)?.focus();
    return () => before?.focus();
  }, []);
  useEffect(() => {
    if (asking) keepRef.current?.focus();
  }, [asking]);
  /** Back to the form, focus with it. */
  const keepEditing = () => {
    setAsking(false);
    if (ref.current) initialFocus(ref.current)?.focus();
  };
  /** A dismissal the user may not have meant (Escape, a click outside). */
  const dismiss = () => (dirty ? setAsking(true) : onClose());
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (asking) keepEditing();
      else dismiss();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const list = focusables(ref.current);
    const first = list[0];
    const last = list[list.length - 1];
    if (!first || !last) return event.preventDefault();
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && ref.current.contains(active);
    if (event.shiftKey && (active === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="backdrop" onMouseDown={(event) => event.target === event.currentTarget && dismiss()}>
      <div ref={ref} className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="dialog-close" aria-label="Close dialog" onClick={onClose}>
            ×
          </button>
        </div>
        {asking && (
          <div className="note tone-warn dialog-ask" role="alert">
            <span>Discard your changes?</span>
            <button ref={keepRef} type="button" onClick={keepEditing}>
              Keep editing
            </button>
            <button type="button" className="danger" onClick={onClose}>
              Discard changes
            </button>
          </div>
        )}
        {children}
        {cancel && (
          <div className="actions">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/** Asks before doing something that cannot be undone. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog title={title} onClose={onCancel}>
      <div>{message}</div>
      <div className="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
