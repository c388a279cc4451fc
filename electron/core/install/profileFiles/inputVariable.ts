/**
 * The environment variable that gives a profile file's input without a
 * prompt: `SWITCHBOARD_INPUT_` and the input's name in capitals, each
 * character other than a letter or digit as `_` (`github-token` ->
 * `SWITCHBOARD_INPUT_GITHUB_TOKEN`). Not a command-line flag: other users
 * could read it from the process list.
 */
export function inputVariable(name: string): string {
  return `SWITCHBOARD_INPUT_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
