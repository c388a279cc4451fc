/**
 * The OS keychain through keytar (Keychain on macOS, Credential Manager on
 * Windows, Secret Service on Linux). keytar is a native module loaded lazily,
 * so a machine without it (or without a keychain) still runs and says why
 * secrets are unavailable; there is never a plaintext fallback.
 *
 * What to do when keytar cannot be loaded: it compiles from source where no
 * prebuilt binary can be fetched, which needs a C++ toolchain, libsecret's
 * headers on Linux, and Node's own headers: Debian's nodejs has them in
 * /usr/include/node, which node-gyp only uses when told
 * (`npm_config_nodedir=/usr`). Said at install (a postinstall check), once at
 * `serve` start, and in the UI (the keychain status reason).
 */
import type { SecretStore, SecretStoreStatus } from './secretStore.js';

/** The fix, for this platform, in one sentence. */
export function keytarAdvice(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'linux') {
    return (
      'to build it, install libsecret-1-dev and pkg-config (Debian/Ubuntu; libsecret-devel on Fedora), ' +
      'then run `npm_config_nodedir=/usr npm rebuild keytar` (Node from Debian packages) or `npm rebuild keytar`'
    );
  }
  return 'to build it, run `npm rebuild keytar` (it needs a C++ toolchain: Xcode tools on macOS, Build Tools on Windows)';
}

/** The service name every Switchboard secret is stored under. */
export const SECRET_SERVICE = 'mcp-switchboard';

/** The part of keytar's API we use. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

/** Options of a {@link KeytarStore}; tests replace the loader and service. */
export interface KeytarStoreOptions {
  service?: string;
  /** Loads keytar; the default imports the `keytar` package. */
  load?: () => Promise<KeytarApi>;
  /** How long a keychain call may take before it counts as unavailable. */
  timeoutMs?: number;
}

const BACKEND =
  process.platform === 'darwin'
    ? 'keytar (macOS Keychain)'
    : process.platform === 'win32'
      ? 'keytar (Windows Credential Manager)'
      : 'keytar (Secret Service)';

async function importKeytar(): Promise<KeytarApi> {
  const name = 'keytar';
  const loaded = (await import(name)) as { default?: KeytarApi } & KeytarApi;
  return loaded.default ?? loaded;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/** A {@link SecretStore} in the OS keychain. */
export class KeytarStore implements SecretStore {
  private readonly service: string;
  private readonly timeoutMs: number;
  private loading: Promise<KeytarApi> | undefined;
  private readonly returned = new Set<string>();

  constructor(private readonly options: KeytarStoreOptions = {}) {
    // SWITCHBOARD_KEYCHAIN_SERVICE keeps a second install (or a test run) apart from the user's own entries.
    this.service = options.service ?? (process.env['SWITCHBOARD_KEYCHAIN_SERVICE'] || SECRET_SERVICE);
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Values this store has read or written, so logs can redact them. */
  knownValues(): string[] {
    return [...this.returned];
  }

  async get(name: string): Promise<string | undefined> {
    const value = await this.call((api) => api.getPassword(this.service, name));
    if (value === null) return undefined;
    this.returned.add(value);
    return value;
  }

  async set(name: string, value: string): Promise<void> {
    this.returned.add(value);
    await this.call((api) => api.setPassword(this.service, name, value));
  }

  async delete(name: string): Promise<boolean> {
    return this.call((api) => api.deletePassword(this.service, name));
  }

  async list(): Promise<string[]> {
    const found = await this.call((api) => api.findCredentials(this.service));
    return found.map((entry) => entry.account).sort();
  }

  async status(): Promise<SecretStoreStatus> {
    try {
      await this.call((api) => api.findCredentials(this.service));
      return { available: true, backend: BACKEND };
    } catch (error) {
      const loaded = await this.api().then(
        () => true,
        () => false,
      );
      return { available: false, backend: loaded ? BACKEND : 'none', reason: messageOf(error) };
    }
  }

  /** Why keytar cannot be loaded (with what to do), or undefined when it loads; never touches the keychain. */
  async loadProblem(): Promise<string | undefined> {
    return this.api().then(
      () => undefined,
      (error: unknown) => messageOf(error),
    );
  }

  private api(): Promise<KeytarApi> {
    this.loading ??= (this.options.load ?? importKeytar)().catch((error: unknown) => {
      throw new Error(`keytar could not be loaded (${messageOf(error)}); ${keytarAdvice()}`);
    });
    return this.loading;
  }

  /** Runs one keychain call, bounded by the timeout; errors carry no secret. */
  private async call<T>(run: (api: KeytarApi) => Promise<T>): Promise<T> {
    const api = await this.api();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the keychain did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([run(api), timeout]);
    } catch (error) {
      throw new Error(messageOf(error));
    } finally {
      clearTimeout(timer);
    }
  }
}
