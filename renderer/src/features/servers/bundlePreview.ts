/**
 * What a bundle will run, before Install (issue #25): its manifest's command
 * and arguments with the values typed so far filled in (`${user_config.X}`;
 * `${__dirname}` is the folder it is unpacked to, named as such), and its
 * sandbox: on, with the folders given as `directory` settings writable and
 * the files given as `file` settings readable, as the core saves it
 * (install/bundles/bundleEntry.ts `bundleGrants`).
 */
import type { BundleView } from '../../../../shared/model/bundleViews.js';
import type { AddPreviewView } from '../../../../shared/model/sandboxViews.js';

/** Where the bundle is unpacked, as the preview names it. */
export const BUNDLE_FOLDER = '<its folder>';

/** The value typed for field `name`, else its default, else the placeholder left as it is. */
function valueOf(view: BundleView, values: Record<string, string>, name: string): string | undefined {
  const field = view.fields.find((candidate) => candidate.name === name);
  if (!field) return undefined;
  if (field.sensitive) return '(secret)';
  return values[field.key] || field.default;
}

function filled(text: string, view: BundleView, values: Record<string, string>): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === '__dirname') return BUNDLE_FOLDER;
    const key = /^user_config\.(.+)$/.exec(name)?.[1];
    return key === undefined ? whole : (valueOf(view, values, key) ?? whole);
  });
}

/** A path the sandbox can grant: absolute or under `~/`. */
function grantable(path: string): boolean {
  return (path.startsWith('/') || path.startsWith('~/')) && !path.split('/').includes('..');
}

/** The preview of `view` with `values` (by field key). */
export function bundlePreview(view: BundleView, values: Record<string, string>): AddPreviewView {
  const given = (type: 'directory' | 'file') =>
    view.fields
      .filter((field) => field.type === type)
      .map((field) => values[field.key] || field.default || '')
      .filter(grantable);
  return {
    command: filled(view.command, view, values),
    args: view.args.map((arg) => filled(arg, view, values)),
    sandbox: { enabled: true, read: given('file'), write: given('directory'), network: 'none' },
  };
}
