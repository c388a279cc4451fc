/**
 * The Electron preload (built as CommonJS, sandboxed): exposes exactly
 * `window.switchboard = { call, on }`, the contract's CoreClient, over IPC.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { exposeContract } from './host/preloadApi.js';

exposeContract(contextBridge, ipcRenderer);
