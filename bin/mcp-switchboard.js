#!/usr/bin/env node
// Entry point of the `mcp-switchboard` command; the TypeScript is bundled into dist/cli/ by `npm run build`
// (build/vite.cli.config.ts; run automatically by `npm install` in a checkout, through the `prepare` script).
// `serve` asks the login shell for its environment first, so that the shell runs while Node loads the
// rest of the program (core/platform/env/loginShell.ts); that module imports only Node's built-ins.
if (process.argv[2] === 'serve') {
  const { startLoginEnvironment } = await import('../dist/cli/loginShell.js');
  startLoginEnvironment();
}
const { main } = await import('../dist/cli/main.js');

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`mcp-switchboard: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
