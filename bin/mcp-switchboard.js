#!/usr/bin/env node
// Entry point of the `mcp-switchboard` command; the TypeScript is bundled into dist/cli/ by `npm run build`
// (build/vite.cli.config.ts; run automatically by `npm install` in a checkout, through the `prepare` script).
// `<command> --help` and `help <command>` are answered first, from the commands' declarations alone: help never
// runs the command and prints without loading the core (electron/cli/helpRequest.ts).
// `serve` asks the login shell for its environment first, so that the shell runs while Node loads the
// rest of the program (core/platform/env/loginShell.ts); that module imports only Node's built-ins.
const argv = process.argv.slice(2);
const { answerCommandHelp } = await import('../dist/cli/help.js');
if (!answerCommandHelp(argv, (text) => void process.stdout.write(text))) {
  if (argv[0] === 'serve') {
    const { startLoginEnvironment } = await import('../dist/cli/loginShell.js');
    startLoginEnvironment();
  }
  const { main } = await import('../dist/cli/main.js');

  main(argv).catch((error) => {
    process.stderr.write(`mcp-switchboard: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
