/**
 * Tabs (WAI-ARIA tabs pattern): a tablist and the one panel of the selected
 * tab. Only the selected tab's panel exists, so only that tab points at it
 * (aria-controls); arrow keys, Home and End move between tabs.
 */
import { useId, useRef, type ReactNode } from 'react';

/** One tab: its value, and what it shows (text, or text and a count). */
export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

/** The tablist for `tabs` and a panel holding `children` (the selected tab's content). */
export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  panelClassName,
  children,
}: {
  /** The tablist's accessible name. */
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  panelClassName?: string;
  children: ReactNode;
}) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const tabId = (id: T) => `${base}-tab-${id}`;
  const panelId = `${base}-panel`;
  const move = (to: number) => {
    const target = tabs[(to + tabs.length) % tabs.length];
    if (!target) return;
    onSelect(target.id);
    listRef.current?.querySelector<HTMLElement>(`[data-tab="${target.id}"]`)?.focus();
  };
  const at = tabs.findIndex((tab) => tab.id === selected);
  return (
    <>
      <div
        ref={listRef}
        className="tabs"
        role="tablist"
        aria-label={label}
        onKeyDown={(event) => {
          const step = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
          if (step === undefined) return;
          event.preventDefault();
          move(step);
        }}
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === selected;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              className="tab"
              id={tabId(tab.id)}
              data-tab={tab.id}
              aria-selected={isSelected}
              aria-controls={isSelected ? panelId : undefined}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <section className={panelClassName} role="tabpanel" id={panelId} aria-labelledby={tabId(selected)}>
        {children}
      </section>
    </>
  );
}
