/**
 * Cancelling a call over Electron IPC, both halves without Electron: the
 * preload settles an aborted call as `cancelled` and sends its call id on the
 * cancel channel; the main side aborts that call's AbortSignal (and only
 * that sender's call with that id).
 */
import { describe, expect, it } from 'vitest';
import {
  CANCEL_CHANNEL,
  exposeContract,
  methodChannel,
  registerContractHandlers,
  type IpcEventLike,
  type IpcMainLike,
} from '../../../electron/host/preloadApi.js';

const PAGE = 'file:///app/dist/renderer/index.html';

describe('cancelling an IPC call', () => {
  it('the preload settles it as cancelled and sends its call id', async () => {
    const sent: unknown[][] = [];
    const invoked: unknown[][] = [];
    const ipcRenderer = {
      invoke: (channel: string, ...args: unknown[]) => {
        invoked.push([channel, ...args]);
        return new Promise<never>(() => undefined);
      },
      send: (channel: string, ...args: unknown[]) => void sent.push([channel, ...args]),
      on: () => undefined,
    };
    const api = exposeContract({ exposeInMainWorld: () => undefined }, ipcRenderer);
    const controller = new AbortController();
    const pending = api.call('catalog.callTool', { name: 'a__b', arguments: {} }, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(invoked).toEqual([[methodChannel('catalog.callTool'), { name: 'a__b', arguments: {} }, 1]]);
    expect(sent).toEqual([[CANCEL_CHANNEL, 1]]);
  });

  it("the main side aborts that call's signal, for that sender only", async () => {
    const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
    const listeners = new Map<string, (event: IpcEventLike, ...args: unknown[]) => void>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
      on: (channel, listener) => void listeners.set(channel, listener),
      removeListener: (channel) => void listeners.delete(channel),
    };
    const signals: AbortSignal[] = [];
    const remove = registerContractHandlers(
      ipcMain,
      (_method, _params, signal) =>
        new Promise((resolve) => {
          signals.push(signal);
          signal.addEventListener('abort', () => resolve({ ok: false, error: { code: 'cancelled', message: 'x' } }));
        }),
      (url) => url === PAGE,
    );
    const handler = handlers.get(methodChannel('backends.check'))!;
    const window1 = { senderFrame: { url: PAGE }, sender: { id: 1 } };
    const window2 = { senderFrame: { url: PAGE }, sender: { id: 2 } };
    const first = handler(window1, { id: 'x', entry: {} }, 7);
    void handler(window2, { id: 'y', entry: {} }, 7);
    listeners.get(CANCEL_CHANNEL)!(window1, 7);
    expect(await first).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    remove();
    expect(signals[1]!.aborted).toBe(true);
    expect(listeners.size).toBe(0);
  });
});
