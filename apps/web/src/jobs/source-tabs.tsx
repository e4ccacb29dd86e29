// Tabs choosing where a job input comes from (an upload or a capture library), with the keyboard of the ARIA tabs
// pattern: arrows, Home and End move between tabs and select them; Tab goes on into the chosen panel.

import type { KeyboardEvent } from "react";

export interface SourceTab<T extends string> {
  value: T;
  label: string;
}

export function SourceTabs<T extends string>(props: {
  /** Names the tab list for assistive technology ("Capture: source"). */
  label: string;
  /** Prefix of the tabs' and panels' ids (panels are `${idPrefix}-panel-${value}`). */
  idPrefix: string;
  tabs: SourceTab<T>[];
  value: T;
  onChange(value: T): void;
}) {
  const { label, idPrefix, tabs, value, onChange } = props;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = tabs.findIndex((tab) => tab.value === value);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onChange(tabs[next].value);
    document.getElementById(`${idPrefix}-tab-${tabs[next].value}`)?.focus();
  }

  return (
    <div role="tablist" aria-label={label} className="source-tabs">
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${tab.value}`}
          aria-selected={tab.value === value}
          aria-controls={`${idPrefix}-panel-${tab.value}`}
          tabIndex={tab.value === value ? 0 : -1}
          onClick={() => onChange(tab.value)}
          onKeyDown={onKeyDown}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** A tab's panel's attributes; none when there are no tabs, the panel then being plain content. */
export function tabPanelProps(idPrefix: string, value: string, tabbed: boolean) {
  return tabbed
    ? { role: "tabpanel", id: `${idPrefix}-panel-${value}`, "aria-labelledby": `${idPrefix}-tab-${value}` }
    : {};
}
