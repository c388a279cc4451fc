// @vitest-environment jsdom
/**
 * A "try it" call while it runs and after: the server's progress as a bar,
 * Cancel sending `catalog.cancelCall` for that call, the server's question
 * as a dialog whose Submit sends the typed content (Decline / Cancel the
 * matching actions), and results with a zoomable image, audio and resource
 * links that open the linked catalog entry.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogEntry, TryInputView, TryResult } from '../../../../../shared/model/views.js';
import { CatalogDetail } from '../../../../../renderer/src/features/catalog/CatalogDetail.js';
import { CatalogScreen } from '../../../../../renderer/src/features/catalog/CatalogScreen.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';

const slow: CatalogEntry = {
  kind: 'tool',
  backendId: 'everything',
  exposed: 'everything__slow',
  original: 'slow',
  inputSchema: { type: 'object', properties: {} },
};
const template: CatalogEntry = {
  kind: 'resourceTemplate',
  backendId: 'everything',
  exposed: 'demo://resource/dynamic/text/{index}',
  original: 'demo://resource/dynamic/text/{index}',
};

/** A callTool handler the test settles, recording the call id it was given. */
function heldCall() {
  const held: { callId?: string; settle?: (result: TryResult) => void } = {};
  const handler = (params: { callId?: string }) =>
    new Promise<TryResult>((resolve) => {
      held.callId = params.callId;
      held.settle = resolve;
    });
  return { held, handler };
}

describe('a try-it call in flight', () => {
  afterEach(cleanup);

  it('shows progress, sends Cancel for its own call, then says it was cancelled', async () => {
    const user = userEvent.setup();
    const { held, handler } = heldCall();
    const { client, store } = await renderWithStore(<CatalogDetail entry={slow} />, (c) =>
      c.handle('catalog.callTool', handler),
    );
    await user.click(screen.getByRole('button', { name: 'Call tool' }));
    const status = await screen.findByRole('status', { name: 'Call in progress' });
    expect(status.textContent).toContain('Waiting for the server');
    act(() => client.emit('tryProgress', { calls: [{ callId: held.callId!, progress: 2, total: 5 }] }));
    const bar = within(status).getByRole('progressbar', { name: 'Progress' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([2, 5]);
    expect(status.textContent).toContain('2 of 5');
    // Another call's progress is not this one's.
    act(() => client.emit('tryProgress', { calls: [{ callId: 'other', progress: 4, total: 5 }] }));
    expect(bar.value).toBe(2);

    await user.click(within(status).getByRole('button', { name: 'Cancel' }));
    expect(client.calls.find((c) => c.method === 'catalog.cancelCall')?.params).toEqual({ callId: held.callId });
    await act(async () =>
      held.settle!({ isError: true, cancelled: true, content: [{ type: 'text', text: 'Cancelled.' }], durationMs: 9 }),
    );
    const result = await screen.findByRole('region', { name: 'Result' });
    expect(within(result).getByText('Cancelled')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Call in progress' })).toBeNull();
    expect(store.getState().tryProgress[held.callId!]).toBeUndefined();
  });

  it.each([
    ['Submit', 'accept'],
    ['Decline', 'decline'],
    ['Cancel', 'cancel'],
  ])("answers the server's question: %s sends %s", async (button, action) => {
    const user = userEvent.setup();
    const { held, handler } = heldCall();
    let inputs: TryInputView[] = [];
    const { client } = await renderWithStore(<CatalogDetail entry={slow} />, (c) => {
      c.handle('catalog.callTool', handler);
      c.handle('catalog.inputs', () => inputs);
    });
    await user.click(screen.getByRole('button', { name: 'Call tool' }));
    await screen.findByRole('status', { name: 'Call in progress' });
    inputs = [
      {
        id: 'q1',
        callId: held.callId!,
        mode: 'form',
        message: 'Who are you?',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Your name' },
            hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
          },
          required: ['name'],
        },
      },
    ];
    await act(async () => client.emit('tryInputsChanged', {}));
    const dialog = await screen.findByRole('dialog', { name: 'The server asks for input' });
    expect(dialog.textContent).toContain('Who are you?');
    if (action === 'accept') {
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
      expect(within(dialog).getByRole('alert').textContent).toBe('Your name is required');
      expect(client.count('catalog.answerInput')).toBe(0);
      await user.type(within(dialog).getByRole('textbox', { name: /^Your name/ }), 'Ada');
      await user.selectOptions(within(dialog).getByRole('combobox', { name: 'hero' }), 'Superman');
    }
    await user.click(within(dialog).getByRole('button', { name: button }));
    expect(client.calls.find((c) => c.method === 'catalog.answerInput')?.params).toEqual(
      action === 'accept' ? { id: 'q1', action, content: { name: 'Ada', hero: 'h1' } } : { id: 'q1', action },
    );
  });
});

describe('try-it results', () => {
  afterEach(cleanup);
  withElementSize();

  it('zooms an image, plays audio, and opens a linked resource in the catalog with its URI filled in', async () => {
    const user = userEvent.setup();
    await renderWithStore(<CatalogScreen />, (c) => {
      c.handle('catalog.list', () => [slow, template]);
      c.handle('catalog.callTool', () => ({
        isError: false,
        durationMs: 3,
        content: [
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'demo://resource/dynamic/text/2', name: 'Text Resource 2' },
          { type: 'resource_link', uri: 'other://nowhere', name: 'Elsewhere' },
        ],
      }));
    });
    await user.click(screen.getByRole('option', { name: 'everything__slow' }));
    await user.click(screen.getByRole('button', { name: 'Call tool' }));
    const result = await screen.findByRole('region', { name: 'Result' });
    expect((within(result).getByLabelText('Audio result') as HTMLAudioElement).controls).toBe(true);

    await user.click(within(result).getByRole('button', { name: 'Zoom Image result' }));
    const zoom = screen.getByRole('dialog', { name: 'Image result' });
    expect(within(zoom).getByRole('img', { name: 'Image result, enlarged' })).toBeTruthy();
    await user.click(within(zoom).getByRole('button', { name: 'Close dialog' }));

    await user.click(within(result).getByRole('button', { name: 'Elsewhere' }));
    expect(within(result).getByText('Not in the catalog.')).toBeTruthy();
    await user.click(within(result).getByRole('button', { name: 'Text Resource 2' }));
    const detail = screen.getByRole('region', { name: `Details of ${template.exposed}` });
    expect((within(detail).getByLabelText('index') as HTMLInputElement).value).toBe('2');
  });
});
