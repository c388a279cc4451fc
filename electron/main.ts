/**
 * The desktop shell: one window over the same core `mcp-switchboard serve`
 * runs (built by startHeadless, so the two cannot drift), a tray icon with
 * the endpoint's status and Quit, closing to the tray (a setting), optional
 * start at login, window size and position remembered in electron-store
 * (`desktop.json` beside the CLI's config.json). The renderer reaches the
 * core only through the preload's `window.switchboard` (contextIsolation,
 * sandbox, no Node), with IPC handlers generated from the contract.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, Menu, nativeImage, Notification, session, shell, Tray } from 'electron';
import Store from 'electron-store';
import { DEFAULT_PORT } from '../shared/endpoint.js';
import { defaultConfigDir, defaultConfigPath, startLoginEnvironment } from './core/platform/index.js';
import { dispatch } from './host/dispatch.js';
import { EVENT_CHANNEL, registerContractHandlers, senderCheck } from './host/preloadApi.js';
import { startHeadless, type Headless } from './host/startHeadless.js';
import { settledSave } from './host/settled.js';
import { approvalNotices, trayStatusLine, waitingLabel } from './host/trayModel.js';
import { packageRoot } from './host/uiFiles.js';

interface DesktopSettings {
  bounds?: { x?: number; y?: number; width: number; height: number };
  maximized?: boolean;
  /** Closing the window keeps Switchboard running in the tray. */
  closeToTray: boolean;
  startAtLogin: boolean;
}

const settings = new Store<DesktopSettings>({
  cwd: defaultConfigDir(),
  name: 'desktop',
  defaults: { closeToTray: true, startAtLogin: false },
});

let headless: Headless | undefined;
let mainWindow: BrowserWindow | undefined;
let tray: Tray | undefined;
let quitting = false;

/** Where the built pieces are: the app's resources when packaged, else this checkout. */
function resourcePath(...parts: string[]): string {
  return app.isPackaged ? join(process.resourcesPath, ...parts) : join(packageRoot(), 'build', ...parts);
}

function rendererIndex(): string {
  return join(app.getAppPath(), 'dist', 'renderer', 'index.html');
}

/** Only our own page may call the core: exactly the built index.html, or the dev server's origin. */
function trustedSender(): (url: string | undefined) => boolean {
  return senderCheck(pathToFileURL(rendererIndex()).href, process.env['ELECTRON_RENDERER_URL']);
}

/** How long window moves and resizes settle before the bounds are saved. */
const SAVE_BOUNDS_MS = 500;

function createWindow(): BrowserWindow {
  const bounds = settings.get('bounds');
  const win = new BrowserWindow({
    width: bounds?.width ?? 1200,
    height: bounds?.height ?? 800,
    ...(bounds?.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 760,
    minHeight: 480,
    title: 'MCP Switchboard',
    show: false,
    icon: resourcePath('icons', '512x512.png'),
    webPreferences: {
      preload: join(import.meta.dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (settings.get('maximized')) win.maximize();
  // Saved (a disk write) once a move or resize settles, not on each of its many events; and on close.
  const remember = settledSave(() => {
    if (win.isDestroyed() || win.isMinimized()) return;
    settings.set('maximized', win.isMaximized());
    if (!win.isMaximized()) settings.set('bounds', win.getBounds());
  }, SAVE_BOUNDS_MS);
  win.on('resize', remember.soon);
  win.on('move', remember.soon);
  win.once('ready-to-show', () => win.show());
  win.on('close', (event) => {
    remember.now();
    if (!quitting && settings.get('closeToTray')) {
      event.preventDefault();
      win.hide();
    }
  });
  win.on('closed', () => (mainWindow = undefined));
  // Links open in the user's browser; the window never navigates away from the UI.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  // Nor does any frame inside it (an iframe of untrusted content must not become a page that looks like ours).
  win.webContents.on('will-frame-navigate', (event) => event.preventDefault());
  const devUrl = process.env['ELECTRON_RENDERER_URL'];
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(rendererIndex());
  return win;
}

function showWindow(): void {
  mainWindow ??= createWindow();
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function statusLine(): string {
  return trayStatusLine(headless?.url, headless?.core.backends.readiness());
}

/** Calls waiting for approval that a desktop notification was shown for. */
const notified = new Set<string>();

/** One desktop notification per new call waiting for approval (clicking it opens the window). */
function notifyApprovals(): void {
  if (!headless || !Notification.isSupported()) return;
  for (const notice of approvalNotices(headless.core.approvals.pending(), notified)) {
    const notification = new Notification({ title: notice.title, body: notice.body });
    notification.on('click', showWindow);
    notification.show();
  }
}

function waitingItems(): Electron.MenuItemConstructorOptions[] {
  const label = waitingLabel(headless?.core.approvals.pending().length ?? 0);
  return label ? [{ label, click: showWindow }, { type: 'separator' }] : [];
}

function updateTray(): void {
  if (!tray) return;
  tray.setToolTip(`MCP Switchboard\n${statusLine()}`);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: statusLine(), enabled: false },
      { type: 'separator' },
      ...waitingItems(),
      { label: 'Open MCP Switchboard', click: showWindow },
      {
        label: 'Keep running when the window is closed',
        type: 'checkbox',
        checked: settings.get('closeToTray'),
        click: (item) => settings.set('closeToTray', item.checked),
      },
      {
        label: 'Start at login',
        type: 'checkbox',
        checked: settings.get('startAtLogin'),
        click: (item) => {
          settings.set('startAtLogin', item.checked);
          app.setLoginItemSettings({ openAtLogin: item.checked });
        },
      },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
}

async function start(): Promise<void> {
  // The page's Content-Security-Policy is the <meta> in renderer/index.html: a file:// page gets no response headers.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  headless = await startHeadless({
    config: defaultConfigPath(),
    host: '127.0.0.1',
    port: DEFAULT_PORT,
    fallbackToFreePort: true,
    hostKind: 'electron',
    ui: false,
    openUrl: (url) => shell.openExternal(url),
    // Client entries start `connect` with this app's own binary run as Node, and its bundled script.
    launcher: {
      command: process.execPath,
      args: [join(app.getAppPath(), 'bin', 'mcp-switchboard.js')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    },
  });
  const running = headless;
  // The window is the approver of `ask` calls for as long as the app runs.
  running.core.approvals.attach();
  registerContractHandlers(
    ipcMain,
    (method, params, signal) => dispatch(running.handlers, method, params, running.redact, signal),
    trustedSender(),
  );
  running.events.on((event, payload) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(EVENT_CHANNEL, event, payload);
    if (event === 'backendsChanged') updateTray();
    if (event === 'approvalsChanged') {
      notifyApprovals();
      updateTray();
    }
  });
  tray = new Tray(nativeImage.createFromPath(resourcePath('icons', '16x16.png')));
  tray.on('click', showWindow);
  updateTray();
  app.setLoginItemSettings({ openAtLogin: settings.get('startAtLogin') });
  showWindow();
  await running.core.start();
  updateTray();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // The login shell runs while Electron gets ready (core/platform/env/loginShell.ts): stdio servers wait for its PATH.
  startLoginEnvironment();
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // The proxy keeps serving from the tray when every window is closed.
  app.on('window-all-closed', () => {
    if (!settings.get('closeToTray')) app.quit();
  });
  app.on('before-quit', () => (quitting = true));
  app.on('will-quit', (event) => {
    if (!headless) return;
    // Stop every backend and reap its processes before the app exits.
    event.preventDefault();
    const stopping = headless;
    headless = undefined;
    void stopping.stop().finally(() => app.exit(0));
  });
  void app.whenReady().then(() =>
    start().catch((error: unknown) => {
      console.error(`MCP Switchboard could not start: ${error instanceof Error ? error.message : String(error)}`);
      app.exit(1);
    }),
  );
}
