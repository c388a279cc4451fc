/**
 * The preload surface: exactly `window.switchboard = { call, on }`, calls
 * limited to the contract's methods (an unknown one never reaches IPC), and
 * listeners that get payloads only. Also the main-process side: one handler
 * per contract method, refusing untrusted senders.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, METHOD_NAMES } from '../../../shared/contract.js';
import {
  EVENT_CHANNEL,
  EXPOSED_KEY,
  exposeContract,
  methodChannel,
  senderCheck,
  registerContractHandlers,
  type IpcMainLike,
} from '../../../electron/host/preloadApi.js';

function fakeElectron() {
  const exposed: Record<string, unknown> = {};
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  const contextBridge = { exposeInMainWorld: (key: string, api: unknown) => void (exposed[key] = api) };
  const ipcRenderer = {
    invoke: async (channel: string, ...args: unknown[]) => {
      invoked.push({ channel, args });
      return { ok: true, result: `answer from ${channel}` };
    },
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
  };
  const emit = (...args: unknown[]) => {
    for (const listener of listeners.get(EVENT_CHANNEL) ?? []) listener({ sender: 'ipc-event' }, ...args);
  };
  return { exposed, invoked, listeners, contextBridge, ipcRenderer, emit };
}

describe('exposeContract', () => {
  it('exposes exactly { call, on } under window.switchboard, frozen', () => {
    const electron = fakeElectron();
    exposeContract(electron.contextBridge, electron.ipcRenderer);
    expect(Object.keys(electron.exposed)).toEqual([EXPOSED_KEY]);
    const api = electron.exposed[EXPOSED_KEY] as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
    expect(typeof api['call']).toBe('function');
    expect(typeof api['on']).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('forwards every contract method to its own channel, with its params', async () => {
    const electron = fakeElectron();
    const api = exposeContract(electron.contextBridge, electron.ipcRenderer);
    const call = api.call as unknown as (method: string, params?: unknown) => Promise<unknown>;
    for (const method of METHOD_NAMES) {
      expect(await call(method, { probe: method })).toEqual({
        ok: true,
        result: `answer from ${methodChannel(method)}`,
      });
    }
    expect(electron.invoked.map((entry) => entry.channel)).toEqual(METHOD_NAMES.map(methodChannel));
    expect(electron.invoked[0]?.args).toEqual([{ probe: METHOD_NAMES[0] }]);
  });

  it('refuses a method outside the contract without reaching ipcRenderer', async () => {
    const electron = fakeElectron();
    const api = exposeContract(electron.contextBridge, electron.ipcRenderer);
    const call = api.call as unknown as (method: unknown, params?: unknown) => Promise<unknown>;
    for (const method of ['shell.exec', 'constructor', '__proto__', 'toString', '', 42, undefined]) {
      expect(await call(method)).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    }
    expect(electron.invoked).toEqual([]);
  });

  it('turns an IPC failure into an error as data', async () => {
    const electron = fakeElectron();
    electron.ipcRenderer.invoke = async () => {
      throw new Error('main process gone');
    };
    const api = exposeContract(electron.contextBridge, electron.ipcRenderer);
    expect(await api.call('app.info')).toEqual({
      ok: false,
      error: { code: 'ipc_failed', message: 'main process gone' },
    });
  });

  it('delivers contract events as payloads only, and unsubscribes', () => {
    const electron = fakeElectron();
    const api = exposeContract(electron.contextBridge, electron.ipcRenderer);
    const seen: unknown[][] = [];
    const stop = api.on('backendsChanged', (...args: unknown[]) => seen.push(args));
    api.on('catalogChanged', () => seen.push(['catalog']));
    electron.emit('backendsChanged', { backendId: 'mem' });
    electron.emit('sessionsChanged', {});
    expect(seen).toEqual([[{ backendId: 'mem' }]]);
    stop();
    electron.emit('backendsChanged', {});
    electron.emit('catalogChanged', {});
    expect(seen).toEqual([[{ backendId: 'mem' }], ['catalog']]);
    expect(electron.listeners.get(EVENT_CHANNEL)).toHaveLength(1);
  });

  it('ignores subscriptions to events outside the contract', () => {
    const electron = fakeElectron();
    const api = exposeContract(electron.contextBridge, electron.ipcRenderer);
    const on = api.on as unknown as (event: string, listener: () => void) => () => void;
    expect(typeof on('not-an-event', () => {})).toBe('function');
    expect(electron.listeners.size).toBe(0);
    expect(EVENT_NAMES.length).toBeGreaterThan(0);
  });
});

describe('registerContractHandlers', () => {
  it('registers one handler per method and refuses untrusted senders', async () => {
    const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    };
    const calls: string[] = [];
    const remove = registerContractHandlers(
      ipcMain,
      async (method) => {
        calls.push(method);
        return { ok: true, result: method };
      },
      (url) => url === 'file:///app/dist/renderer/index.html',
    );
    expect([...handlers.keys()]).toEqual(METHOD_NAMES.map(methodChannel));
    const handler = handlers.get(methodChannel('backends.list'))!;
    expect(await handler({ senderFrame: { url: 'file:///app/dist/renderer/index.html' } })).toEqual({
      ok: true,
      result: 'backends.list',
    });
    expect(await handler({ senderFrame: { url: 'https://evil.example/' } })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(calls).toEqual(['backends.list']);
    remove();
    expect(handlers.size).toBe(0);
  });
});

describe('senderCheck', () => {
  const index = '/opt/app/resources/app.asar/dist/renderer/index.html';
  const page = pathToFileURL(index).href;

  it('accepts exactly the built index.html, whatever its query or fragment', () => {
    const allowed = senderCheck(page);
    expect(allowed(page)).toBe(true);
    expect(allowed(`${page}?tab=servers#log`)).toBe(true);
  });

  it('refuses other files, look-alike paths, other schemes and nothing', () => {
    const allowed = senderCheck(page);
    for (const url of [
      undefined,
      '',
      'not a url',
      'file:///tmp/evil/dist/renderer/index.html',
      'file:///opt/app/resources/app.asar/dist/renderer/index.html.evil',
      'file:///opt/app/resources/app.asar/dist/renderer/other.html',
      'file://remote-host/opt/app/resources/app.asar/dist/renderer/index.html',
      'https://example.com/dist/renderer/index.html',
      'http://127.0.0.1:5173/',
    ]) {
      expect(allowed(url), String(url)).toBe(false);
    }
  });

  it("accepts the dev server's origin (any path), not a prefix look-alike", () => {
    const allowed = senderCheck(page, 'http://localhost:5173/');
    expect(allowed('http://localhost:5173/')).toBe(true);
    expect(allowed('http://localhost:5173/src/main.tsx?x=1')).toBe(true);
    expect(allowed('http://localhost:51730/')).toBe(false);
    expect(allowed('http://localhost:5173.evil.example/')).toBe(false);
    expect(allowed('http://127.0.0.1:5173/')).toBe(false);
    expect(allowed(page)).toBe(true);
  });
});
