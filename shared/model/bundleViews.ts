/**
 * What the UI sees of a .mcpb (or older .dxt) bundle before installing it:
 * its manifest's name, author, version, the tools it declares and what it
 * asks the user for (`user_config`, sensitive fields marked). Plain data.
 */

/**
 * Largest bundle the UI sends over the bridge (bytes). Base64 makes it a third
 * larger, which must stay under the bridge's 8 MiB frame; larger bundles
 * install with `mcp-switchboard add ./file.mcpb`.
 */
export const MAX_UPLOAD_BUNDLE_BYTES = 5 * 1024 * 1024;

/** One value a bundle asks for. */
export interface BundleFieldView {
  /** The form key (`var:<name>`), as `bundles.install` takes it. */
  key: string;
  name: string;
  title: string;
  description: string;
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  required: boolean;
  /** Kept in the OS keychain, never config.json. */
  sensitive: boolean;
  multiple: boolean;
  default?: string;
}

/** A bundle's manifest as shown before Install. */
export interface BundleView {
  name: string;
  displayName?: string;
  version: string;
  description: string;
  author: string;
  /** How its server runs (node, python, binary, uv). */
  serverType: string;
  tools: { name: string; description?: string }[];
  fields: BundleFieldView[];
  /**
   * What it runs on this platform, as its manifest says: `${__dirname}` is the
   * folder it is unpacked to, `${user_config.X}` the value given for field X
   * (shown filled in before Install).
   */
  command: string;
  args: string[];
}

/** A bundle file as the UI uploads it: its name and its bytes in base64. */
export interface BundleUpload {
  fileName: string;
  data: string;
}
