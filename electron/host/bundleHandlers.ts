/**
 * .mcpb bundles from the UI: the browser sends the file's bytes (base64, at
 * most MAX_UPLOAD_BUNDLE_BYTES, so the bridge frame stays bounded); the
 * manifest is validated and shown (`bundles.inspect`), then installed by the
 * same core as the CLI's `add ./file.mcpb` (install/bundles/installBundle.ts): files
 * unpacked, sensitive values to the keychain (without one, where the user
 * chooses, as for registry entries), checked by starting it, saved.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import { MAX_UPLOAD_BUNDLE_BYTES, type BundleUpload, type BundleView } from '../../shared/model/bundleViews.js';
import {
  type BundleManifest,
  installBundle,
  installingPath,
  readBundleBytes,
  type InputValues,
} from '../core/install/index.js';
import { registryContext, type RegistryHandlerDeps } from './registryHandlers.js';

/** The upload's bytes, refused when too large or not base64. */
function uploadBytes(params: BundleUpload): { fileName: string; bytes: Buffer } {
  const fileName = basename(params.fileName);
  const { data } = params;
  // Checked on the text first: a huge string is refused before it is decoded.
  if (data.length > Math.ceil(MAX_UPLOAD_BUNDLE_BYTES / 3) * 4) {
    throw new SwitchboardError(
      ErrorCode.InvalidParams,
      `${fileName} is larger than ${MAX_UPLOAD_BUNDLE_BYTES / 1024 / 1024} MiB: install it with \`mcp-switchboard add ${fileName}\``,
      { field: 'data' },
    );
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    throw new SwitchboardError(ErrorCode.InvalidParams, '"data" must be the file in base64', { field: 'data' });
  }
  return { fileName, bytes: Buffer.from(data, 'base64') };
}

/** The manifest as the UI shows it. */
export function bundleView(manifest: BundleManifest): BundleView {
  const run = { ...manifest.server.mcp_config, ...manifest.server.mcp_config.platform_overrides?.[process.platform] };
  return {
    command: run.command,
    args: run.args ?? [],
    name: manifest.name,
    ...(manifest.display_name ? { displayName: manifest.display_name } : {}),
    version: manifest.version,
    description: manifest.description,
    author: manifest.author.name,
    serverType: manifest.server.type,
    tools: (manifest.tools ?? []).map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
    })),
    fields: Object.entries(manifest.user_config ?? {}).map(([name, field]) => ({
      key: `var:${name}`,
      name,
      title: field.title,
      description: field.description,
      type: field.type,
      required: field.required === true,
      sensitive: field.sensitive === true,
      multiple: field.multiple === true,
      ...(field.default !== undefined ? { default: String(field.default) } : {}),
    })),
  };
}

/** Handlers of `bundles.inspect` and `bundles.install`. */
export function bundleHandlers(deps: RegistryHandlerDeps): Pick<CoreHandlers, 'bundles.inspect' | 'bundles.install'> {
  return {
    'bundles.inspect': async (params) => {
      const { fileName, bytes } = uploadBytes(params);
      return bundleView((await readBundleBytes(bytes, fileName)).manifest);
    },
    'bundles.install': async (params) => {
      const { fileName, bytes } = uploadBytes(params);
      const values: InputValues = params.values;
      const { manifest } = await readBundleBytes(bytes, fileName);
      const storage = params.secretStorage ? { storage: params.secretStorage } : {};
      const ctx = await registryContext(deps, { ...storage, ask: true });
      const downloads = join(deps.stateDir, 'downloads');
      await mkdir(downloads, { recursive: true });
      // Named for the sweep of killed installs: a serve killed mid-install leaves it for the next start.
      const file = installingPath(downloads, 'upload');
      await writeFile(file, bytes, { mode: 0o600 });
      try {
        const outcome = await installBundle(ctx, file, {
          stateDir: deps.stateDir,
          values,
          ...(params.id ? { id: params.id } : {}),
          ...(params.unsandboxed ? { unsandboxed: true } : {}),
          // The uploaded file's own name, in errors and the source: the temporary copy is gone once installed.
          label: fileName,
          source: { registry: `file://${fileName}`, name: manifest.name, version: manifest.version },
        });
        return {
          id: outcome.id,
          secrets: outcome.secrets.map((s) => s.reference),
          ...(outcome.tools !== undefined ? { tools: outcome.tools } : {}),
        };
      } finally {
        await rm(file, { force: true });
      }
    },
  };
}
