/**
 * A bundle file picked or dropped in the browser, as the bridge takes it:
 * its name and bytes in base64, refused here already when too large (the
 * core refuses it too).
 */
import type { ErrorData } from '../../../../shared/errors.js';
import { MAX_UPLOAD_BUNDLE_BYTES, type BundleUpload } from '../../../../shared/model/bundleViews.js';

/** The file's bytes in base64 (in chunks: one call per byte would overflow the stack). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `file` as an upload, or the reason it cannot be one. */
export async function bundleUpload(file: File): Promise<{ upload: BundleUpload } | { error: ErrorData }> {
  if (!/\.(mcpb|dxt)$/i.test(file.name)) {
    return { error: { code: 'invalid_params', message: `${file.name} is not a .mcpb (or .dxt) bundle` } };
  }
  if (file.size > MAX_UPLOAD_BUNDLE_BYTES) {
    return {
      error: {
        code: 'invalid_params',
        message: `${file.name} is larger than ${MAX_UPLOAD_BUNDLE_BYTES / 1024 / 1024} MiB: install it with \`mcp-switchboard add ${file.name}\``,
      },
    };
  }
  return { upload: { fileName: file.name, data: base64(new Uint8Array(await file.arrayBuffer())) } };
}
