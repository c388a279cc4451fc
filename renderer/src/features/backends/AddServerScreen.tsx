/**
 * Adding a server three ways: from the well-known list, with the form for any
 * command or URL, or by pasting a Claude Desktop / Cursor `mcpServers` snippet.
 */
import { useState } from 'react';
import { emptyServerForm, type ServerFormState } from './entryForm.js';
import { PresetPicker } from './PresetPicker.js';
import { saveBackend } from './saveBackend.js';
import { ServerForm } from './ServerForm.js';
import { SnippetImport } from './SnippetImport.js';
import { useAppStore } from '../../store/context.js';

type AddTab = 'presets' | 'custom' | 'snippet';

const TABS: { id: AddTab; label: string }[] = [
  { id: 'presets', label: 'Well-known servers' },
  { id: 'custom', label: 'Command or URL' },
  { id: 'snippet', label: 'Paste JSON' },
];

/** The Add server screen. */
export function AddServerScreen() {
  const [tab, setTab] = useState<AddTab>('presets');
  const [customForm, setCustomForm] = useState<ServerFormState>(emptyServerForm);
  const call = useAppStore((s) => s.call);
  const addBackend = useAppStore((s) => s.addBackend);
  const updateBackend = useAppStore((s) => s.updateBackend);
  const setScreen = useAppStore((s) => s.setScreen);

  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Add a server</h1>
          <p>Switchboard connects to it and lists its catalog before saving, so a broken server is never saved.</p>
        </div>
      </header>
      <div className="tabs" role="tablist" aria-label="How to add">
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            className="tab"
            id={`add-tab-${item.id}`}
            aria-selected={tab === item.id}
            aria-controls={`add-panel-${item.id}`}
            onClick={() => setTab(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <section className="panel" role="tabpanel" id={`add-panel-${tab}`} aria-labelledby={`add-tab-${tab}`}>
        {tab === 'presets' && <PresetPicker />}
        {tab === 'custom' && (
          <ServerForm
            form={customForm}
            onChange={setCustomForm}
            submitLabel="Check and add"
            onSubmit={async (submit) => {
              const outcome = await saveBackend({ call, addBackend, updateBackend }, submit);
              if (!outcome.ok) return outcome.error;
              setCustomForm(emptyServerForm());
              setScreen('backends');
              return undefined;
            }}
          />
        )}
        {tab === 'snippet' && <SnippetImport />}
      </section>
    </>
  );
}
