// @vitest-environment jsdom
/**
 * The catalog for assistive tech and impatient hands: option ids unique and
 * the active descendant only pointing at a rendered option; tabs pointing only
 * at panels that exist; prompts and resources busy while they run (no double
 * submit), prompts checked like tools.
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogEntry, TryResult } from '../../../../../shared/model/views.js';
import { AddServerScreen } from '../../../../../renderer/src/features/servers/AddServerScreen.js';
import { CatalogList } from '../../../../../renderer/src/features/catalog/CatalogList.js';
import { CatalogScreen } from '../../../../../renderer/src/features/catalog/CatalogScreen.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';

const tool = (exposed: string, backendId = 'b'): CatalogEntry => ({
  kind: 'tool',
  backendId,
  exposed,
  original: exposed,
});

/** Every aria-controls / aria-activedescendant / aria-labelledby in the document names an element that exists. */
const danglingReferences = (): string[] =>
  ['aria-controls', 'aria-activedescendant', 'aria-labelledby'].flatMap((attribute) =>
    [...document.querySelectorAll(`[${attribute}]`)].flatMap((element) =>
      (element.getAttribute(attribute) ?? '')
        .split(/\s+/)
        .filter((id) => id && !document.getElementById(id))
        .map((id) => `${attribute}=${id}`),
    ),
  );

describe('Catalog accessibility', () => {
  afterEach(cleanup);
  withElementSize();

  it('gives every option its own id, even when names differ only in punctuation', () => {
    render(
      <CatalogList
        entries={[tool('a.b'), tool('a_b'), tool('a-b'), tool('a:b')]}
        selectedKey="tool:a_b"
        onSelect={() => undefined}
      />,
    );
    const ids = screen.getAllByRole('option').map((option) => option.id);
    expect(new Set(ids).size).toBe(4);
    const list = screen.getByRole('listbox');
    const active = document.getElementById(list.getAttribute('aria-activedescendant') ?? '');
    expect(active?.getAttribute('aria-label')).toBe('a_b');
  });

  it('names an active descendant only when the selected option is rendered', () => {
    const many = Array.from({ length: 500 }, (_, i) => tool(`t${i}`));
    const { rerender } = render(<CatalogList entries={many} selectedKey="tool:t499" onSelect={() => undefined} />);
    const list = screen.getByRole('listbox');
    expect(screen.queryByRole('option', { name: 't499' })).toBeNull(); // virtualized away
    expect(list.hasAttribute('aria-activedescendant')).toBe(false);
    rerender(<CatalogList entries={many} selectedKey="tool:t1" onSelect={() => undefined} />);
    expect(document.getElementById(list.getAttribute('aria-activedescendant') ?? '')?.getAttribute('aria-label')).toBe(
      't1',
    );
  });

  it('points tabs only at panels that exist (catalog kinds and add-server ways)', async () => {
    const user = userEvent.setup();
    await renderWithStore(<CatalogScreen />, (c) => c.handle('catalog.list', () => [tool('x')]));
    expect(danglingReferences()).toEqual([]);
    const tools = screen.getByRole('tab', { name: /Tools/ });
    await user.click(tools);
    expect(tools.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: /Tools/ })).toBeTruthy();
    expect(danglingReferences()).toEqual([]);
    cleanup();

    await renderWithStore(<AddServerScreen />);
    for (const name of ['Command or URL', 'Paste JSON', 'Bundle file', 'Find a server']) {
      await user.click(screen.getByRole('tab', { name }));
      expect(screen.getByRole('tabpanel', { name })).toBeTruthy();
      expect(danglingReferences()).toEqual([]);
    }
    // Arrow keys move between tabs (roving focus).
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Bundle file' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Bundle file' }));
  });
});

describe('Trying prompts and resources', () => {
  afterEach(cleanup);
  withElementSize();

  const result: TryResult = { isError: false, content: [{ type: 'text', text: 'done' }], durationMs: 1 };

  it('reads a template resource once per submit, busy meanwhile, with the operators expanded', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const template: CatalogEntry = {
      kind: 'resourceTemplate',
      backendId: 'fs',
      exposed: 'mcp-proxy://fs/search{?q}',
      original: 'search{?q}',
    };
    const { client } = await renderWithStore(<CatalogScreen />, (c) => {
      c.handle('catalog.list', () => [template]);
      c.handle('catalog.readResource', () => new Promise((resolve) => (release = () => resolve(result))));
    });
    await user.click(screen.getByRole('option', { name: template.exposed }));
    const form = screen.getByRole('form', { name: `Read ${template.exposed}` });
    await user.type(within(form).getByRole('textbox', { name: 'q' }), 'val');
    const button = within(form).getByRole('button', { name: 'Read resource' });
    await user.click(button);
    await user.click(button); // a second click while the first read runs
    await act(async () => within(form).getByRole('button', { name: 'Reading…' }).closest('form')?.requestSubmit());
    expect(client.count('catalog.readResource')).toBe(1);
    expect((within(form).getByRole('button', { name: 'Reading…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(client.calls.find((c) => c.method === 'catalog.readResource')?.params).toEqual({
      uri: 'mcp-proxy://fs/search?q=val',
      callId: expect.any(String),
    });
    await act(async () => release());
    await within(form).findByRole('region', { name: 'Result' });
    expect(client.count('catalog.readResource')).toBe(1);
  });

  it("checks a prompt's required arguments like a tool's, and gets it once per submit", async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const prompt: CatalogEntry = {
      kind: 'prompt',
      backendId: 'm',
      exposed: 'm_summary',
      original: 'summary',
      arguments: [
        { name: 'topic', required: true },
        { name: 'style', description: 'optional' },
      ],
    };
    const { client } = await renderWithStore(<CatalogScreen />, (c) => {
      c.handle('catalog.list', () => [prompt]);
      c.handle('catalog.getPrompt', () => new Promise((resolve) => (release = () => resolve(result))));
    });
    await user.click(screen.getByRole('option', { name: 'm_summary' }));
    const form = screen.getByRole('form', { name: 'Get m_summary' }) as HTMLFormElement;
    await user.click(within(form).getByRole('button', { name: 'Get prompt' }));
    expect(within(form).getByRole('alert').textContent).toBe('topic is required');
    expect(client.count('catalog.getPrompt')).toBe(0);
    await user.type(within(form).getByRole('textbox', { name: /topic/ }), 'cats');
    await user.click(within(form).getByRole('button', { name: 'Get prompt' }));
    await act(async () => form.requestSubmit()); // submitted again (Enter) while the first runs
    expect(client.count('catalog.getPrompt')).toBe(1);
    expect(client.calls.find((c) => c.method === 'catalog.getPrompt')?.params).toEqual({
      name: 'm_summary',
      arguments: { topic: 'cats' },
      callId: expect.any(String),
    });
    await act(async () => release());
    await within(form).findByRole('region', { name: 'Result' });
  });
});
