/**
 * Whether a host a sandboxed server asks to reach is on its list
 * (`sandbox.network: ["api.github.com", "*.example.com:443", "127.0.0.1:8080"]`):
 * a name matches itself, `*.domain` matches any name under the domain (not the
 * domain itself), and an entry with a port allows only that port. Names are
 * compared without case and without a trailing dot.
 */

/** One allowed destination, parsed. */
interface HostRule {
  host: string;
  wildcard: boolean;
  port: number | undefined;
}

function parseRule(entry: string): HostRule {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const [, rawHost, rawPort] = bracketed ?? /^([^:]+)(?::(\d+))?$/.exec(entry) ?? [entry, entry, undefined];
  const wildcard = (rawHost ?? '').startsWith('*.');
  const host = normalize(wildcard ? (rawHost ?? '').slice(2) : (rawHost ?? ''));
  return { host, wildcard, port: rawPort === undefined ? undefined : Number(rawPort) };
}

function normalize(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
}

/** The hosts one server may reach, ready to ask. */
export class HostList {
  private readonly rules: HostRule[];

  constructor(entries: readonly string[]) {
    this.rules = entries.map(parseRule);
  }

  /** Whether `host:port` is allowed. */
  allows(host: string, port: number): boolean {
    const name = normalize(host);
    return this.rules.some(
      (rule) =>
        (rule.port === undefined || rule.port === port) &&
        (rule.wildcard ? name.endsWith(`.${rule.host}`) : name === rule.host),
    );
  }
}

/** The host and port a proxy request names: `CONNECT host:port`, or an absolute URL for plain HTTP. */
export function proxyTarget(
  method: string | undefined,
  url: string | undefined,
): { host: string; port: number } | undefined {
  if (!url) return undefined;
  if (method === 'CONNECT') {
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(url);
    return match ? { host: match[1] as string, port: Number(match[2]) } : undefined;
  }
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}
