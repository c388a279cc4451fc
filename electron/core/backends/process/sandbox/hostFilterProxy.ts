/**
 * The one way out of a sandbox whose network is a list of hosts: an HTTP
 * proxy (the `proxy` package: CONNECT for HTTPS, absolute URLs for HTTP) on a
 * Unix socket that is the only thing the sandbox's empty network namespace
 * can reach (bubblewrapArgs.ts bridges it to 127.0.0.1 inside with socat, and
 * points HTTP_PROXY and its kin at it). It lets through what the server's list
 * allows and refuses the rest, reporting each refusal by name ("blocked:
 * connection to api.github.com"): the proxy sees the host a client asked for,
 * before any name is resolved. Other protocols have no way out at all.
 * Learn mode (learnRun.ts) opens one that lets everything through and
 * reports each destination instead (`record`), for the names it yields.
 */
import { createServer } from 'node:http';
import { rmSync } from 'node:fs';
import { createProxy, type ProxyServer } from 'proxy';
import { HostList, proxyTarget } from './hostList.js';

export class HostFilterProxy {
  private list: HostList;

  private constructor(
    private readonly server: ProxyServer,
    readonly socketPath: string,
    entries: readonly string[],
  ) {
    this.list = new HostList(entries);
  }

  /**
   * Listens on `socketPath` (an old socket there is replaced), allowing
   * `entries`; with `record`, allowing every destination and telling it
   * `host:port` (learn mode).
   */
  static async open(
    socketPath: string,
    entries: readonly string[],
    onBlocked: (target: string) => void,
    record?: (target: string) => void,
  ): Promise<HostFilterProxy> {
    rmSync(socketPath, { force: true });
    const server = createProxy(createServer());
    const proxy = new HostFilterProxy(server, socketPath, entries);
    server.authenticate = (req) => {
      const target = proxyTarget(req.method, req.url);
      if (record && target) {
        record(`${target.host}:${target.port}`);
        return true;
      }
      if (target && proxy.list.allows(target.host, target.port)) return true;
      onBlocked(target ? `${target.host}:${target.port}` : String(req.url));
      return false;
    };
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  /** The hosts allowed from now on (a changed setting, at the server's next start). */
  allow(entries: readonly string[]): void {
    this.list = new HostList(entries);
  }

  /** Stops listening and ends open tunnels. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.socketPath, { force: true });
  }
}
