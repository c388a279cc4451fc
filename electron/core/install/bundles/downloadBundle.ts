/**
 * Downloading the .mcpb file of a registry entry's `mcpb` package and checking
 * it against the entry's `fileSha256` before anything reads it (the schema:
 * "MCP clients must validate the downloaded file matches this hash before
 * execution"). The file is written only once its hash matched.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { MAX_BUNDLE_BYTES } from './installBundle.js';
import { installingPath } from './installLeftovers.js';

/** How long a bundle download may take. */
export const BUNDLE_DOWNLOAD_TIMEOUT_MS = 120_000;

/** Downloads `url` into `directory` and returns the file's path; refuses a hash mismatch. */
export async function downloadBundle(
  url: string,
  sha256: string,
  directory: string,
  options: { signal?: AbortSignal; timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? BUNDLE_DOWNLOAD_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal });
  } catch (error) {
    const reason = timeout.aborted ? 'no answer in time' : (error as Error).message;
    throw new SwitchboardError(ErrorCode.RegistryUnavailable, `cannot download ${url}: ${reason}`);
  }
  if (!response.ok) {
    throw new SwitchboardError(ErrorCode.RegistryUnavailable, `cannot download ${url}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BUNDLE_BYTES) {
    throw new SwitchboardError(ErrorCode.BundleInvalid, `${url} is ${declared} bytes, more than ${MAX_BUNDLE_BYTES}`);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_BUNDLE_BYTES) {
    throw new SwitchboardError(ErrorCode.BundleInvalid, `${url} is more than ${MAX_BUNDLE_BYTES} bytes`);
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256.toLowerCase()) {
    throw new SwitchboardError(
      ErrorCode.BundleInvalid,
      `${url}: fileSha256 does not match (expected ${sha256}, got ${actual}); not installed`,
      { field: 'fileSha256' },
    );
  }
  await mkdir(directory, { recursive: true });
  // Named for the sweep of killed installs (installLeftovers.ts); the caller removes it once read.
  const path = installingPath(directory, 'download');
  await writeFile(path, bytes, { mode: 0o600 });
  return path;
}
