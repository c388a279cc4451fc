#!/usr/bin/env node
// Entry point of the `mcp-switchboard` command; the TypeScript is compiled to dist/ by `npm run build`
// (run automatically by `npm install` in a checkout, through the `prepare` script).
import { main } from '../dist/electron/cli/main.js';

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`mcp-switchboard: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
