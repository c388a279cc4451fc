/**
 * Adding a server: the Featured row (built in, works offline) above the MCP Registry search, a .mcpb bundle
 * file, the form for any command or URL, or a pasted Claude Desktop / Cursor `mcpServers` snippet.
 */
import { useState } from 'react';
import { Tabs, type TabItem } from '../../components/Tabs.js';
import { BundleInstall } from './BundleInstall.js';
import { emptyServerForm, type ServerFormState } from './entryForm.js';
import { PresetPicker } from './PresetPicker.js';
import { RegistryPicker } from './RegistryPicker.js';
import { saveBackend } from './saveBackend.js';
import { ServerForm } from './ServerForm.js';
import { SnippetImport } from './SnippetImport.js';
import { useAppStore } from '../../store/context.js';

type AddTab = 'find' | 'bundle' | 'custom' | 'snippet';

const TABS: TabItem<AddTab>[] = [
  { id: 'find', label: 'Find a server' },
  { id: 'bundle', label: 'Bundle file' },
  { id: 'custom', label: 'Command or URL' },
  { id: 'snippet', label: 'Paste JSON' },
];

/** The Add server screen. */
export function AddServerScreen() {
  const [tab, setTab] = useState<AddTab>('find');
  const [customForm, setCustomForm] = useState<ServerFormState>(emptyServerForm);
  const call = useAppStore((s) => s.call);
  const addBackend = useAppStore((s) => s.addBackend);
  const updateBackend = useAppStore((s) => s.updateBackend);
  const showAdded = useAppStore((s) => s.showAdded);

  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Add a server</h1>
          <p>Switchboard connects to it and lists its catalog before saving, so a broken server is never saved.</p>
        </div>
      </header>
      <Tabs label="How to add" tabs={TABS} selected={tab} onSelect={setTab} panelClassName="panel">
        {tab === 'find' && (
          <div className="stack">
            <PresetPicker />
            <RegistryPicker />
          </div>
        )}
        {tab === 'bundle' && <BundleInstall />}
        {tab === 'custom' && (
          <ServerForm
            form={customForm}
            onChange={setCustomForm}
            submitLabel="Add"
            onSubmit={async (submit, onPhase) => {
              const outcome = await saveBackend({ call, addBackend, updateBackend }, submit, onPhase);
              if (!outcome.ok) return outcome.error;
              setCustomForm(emptyServerForm());
              showAdded(submit.id);
              return undefined;
            }}
          />
        )}
        {tab === 'snippet' && <SnippetImport />}
      </Tabs>
    </>
  );
}
