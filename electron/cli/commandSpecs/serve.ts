/**
 * What `serve` take and say in `--help`: the one declaration the parser checks
 * options against and the help is printed from. Imports nothing heavy, so
 * `<command> --help` answers before the core loads.
 */
import { DEFAULT_PORT } from '../../../shared/endpoint.js';
import type { CommandSpec } from '../command.js';
import { CONFIG_FILE } from '../optionHelp.js';

/** The command, in help order. */
export const serveSpecs: readonly CommandSpec[] = [
  {
    name: 'serve',
    usage: [
      `serve [--config FILE] [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--quiet] [--no-open] [--log-format text|json]`,
      'serve --host 0.0.0.0 [--tls-cert FILE --tls-key FILE]   (gateway mode: a "gateway" section in the config)',
      'serve --stdio [--config FILE] [--log-format text|json]',
    ],
    text: [
      'Serve the merged catalog over Streamable HTTP at http://<host>:<port>/mcp',
      '(--port 0 picks a free port). Clients send "Authorization: Bearer <token>";',
      'the token is SWITCHBOARD_TOKEN, or one generated and kept for later starts',
      '(printed unless --quiet, for output that goes to a log).',
      'The UI is served on the same port: open the printed one-time link',
      'http://127.0.0.1:<port>/ui?login=<token> (not printed with --quiet). The first',
      'serve of a config in a terminal opens the UI in the browser once (not with --no-open).',
      'With --stdio: the same catalog over stdin/stdout, for clients that launch a command.',
      'Metrics (/metrics) and traces are off unless the config\'s "observability" section',
      'turns them on; --log-format json writes one JSON object per log line, with a request id.',
      'Gateway mode (a "gateway" section in the config): /mcp is an OAuth protected resource',
      "of your team's identity provider, and may listen beyond loopback (docs/gateway.md).",
    ],
    options: {
      ...CONFIG_FILE,
      host: 'Address to listen on: 127.0.0.1 (default), localhost or ::1; any other needs gateway mode.',
      'tls-cert': 'Serve HTTPS with this certificate (PEM; with --tls-key; default: gateway.tls.cert).',
      'tls-key': 'The private key (PEM) of --tls-cert.',
      'insecure-no-auth-on-network': 'Listen beyond loopback without gateway mode (warns; not for shared networks).',
      port: `Port to listen on (default ${DEFAULT_PORT}; 0 picks a free one).`,
      stdio: 'Serve one client over stdin/stdout instead of HTTP.',
      quiet: 'Print neither the token nor the UI link (for output that goes to a log).',
      'no-open': 'Do not open the UI in the browser on the first serve of a config.',
      'log-format': 'Log lines as text (default) or json (one object per line, with a request id).',
    },
    examples: [
      'serve',
      'serve --port 0 --quiet',
      'serve --stdio --config ./switchboard.json',
      'serve --quiet --log-format json',
      'serve --config ./gateway.json --host 0.0.0.0 --port 443 --tls-cert cert.pem --tls-key key.pem',
    ],
  },
];
