/**
 * Saving an exported profile file (the host returns its text; the renderer
 * saves it as a download, named `<id>.profile.json`).
 */
import type { ProfileExportView } from '../../../../shared/model/profileFileViews.js';

/** Saves the file as a download. */
export function downloadProfile(file: ProfileExportView): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
