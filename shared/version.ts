/** The app's version, shown to MCP peers and by `--version`. Keep in step with package.json. */
export const VERSION = '0.1.0';
