/**
 * .mcpb bundles built in a test: a manifest.json and a small server that
 * runs our configurable fixture (its tools named by FIXTURE_TOOLS), and
 * registry entries whose mcpb package is one. The server is self-contained,
 * as a published bundle is (its dependencies inside it): the fixture and the
 * SDK in one file, so it runs from the bundle's folder alone, sandboxed too.
 */
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import JSZip from 'jszip';
import { fixture } from './basics.js';

let serverSource: Promise<string> | undefined;

/** The configurable fixture and everything it imports, as one ES module (built once per test file). */
export function bundledServer(): Promise<string> {
  serverSource ??= build({
    entryPoints: [fixture('configurable.mjs')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    // The SDK's CommonJS dependencies call require(): give the module one.
    banner: {
      js: "import { createRequire as switchboardRequire } from 'node:module';\nconst require = switchboardRequire(import.meta.url);",
    },
  }).then((result) => result.outputFiles[0]!.text);
  return serverSource;
}

/** A valid manifest (0.3) of a bundle named `name`, with `overrides` on top. */
export function bundleManifest(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name,
    display_name: 'Greeter',
    version: '1.2.0',
    description: 'Says hello',
    author: { name: 'Switchboard tests' },
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.mjs'],
        env: { FIXTURE_TOOLS: '${user_config.tools}', FIXTURE_NAME: name, API_KEY: '${user_config.api_key}' },
      },
    },
    tools: [{ name: 'greet', description: 'Greets' }],
    user_config: {
      tools: { type: 'string', title: 'Tools', description: 'Tool names', required: true },
      api_key: { type: 'string', title: 'API key', description: 'Secret', sensitive: true, required: false },
    },
    ...overrides,
  };
}

/** The bundle's bytes: `manifest` plus a server, plus `extra` files. */
export async function bundleBytes(
  manifest: Record<string, unknown>,
  extra: Record<string, string> = {},
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('manifest.json', JSON.stringify(manifest));
  zip.file('server/index.mjs', await bundledServer());
  for (const [path, text] of Object.entries(extra)) zip.file(path, text);
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** A bundle of `version` whose server lists `tools`, run from `main` (a missing one: a server that does not start). */
export function toolsBundle(version: string, tools: string, main = 'server/index.mjs'): Promise<Buffer> {
  return bundleBytes(
    bundleManifest('tools-bundle', {
      version,
      description: 'A bundle from a registry',
      server: {
        type: 'node',
        entry_point: main,
        mcp_config: { command: 'node', args: [`\${__dirname}/${main}`], env: { FIXTURE_TOOLS: tools } },
      },
      tools: undefined,
      user_config: undefined,
    }),
  );
}

/** The sha256 of `bytes` in hex (an mcpb package's `fileSha256`). */
export const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A registry entry `name`@`version` whose one package is the mcpb file `file` of `registryUrl`, hash `sha`. */
export function mcpbEntry(
  registryUrl: string,
  name: string,
  sha: string,
  version = '0.2.0',
  file = 'tools.mcpb',
): Record<string, unknown> {
  return {
    name,
    description: 'Tools as an MCP bundle',
    version,
    packages: [
      {
        registryType: 'mcpb',
        identifier: `${registryUrl}/files/${file}`,
        fileSha256: sha,
        transport: { type: 'stdio' },
      },
    ],
  };
}
