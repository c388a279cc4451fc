/**
 * Commands a definition tells the model to run that no tool description has a
 * reason to carry: code downloaded and piped into a shell ("curl ... | sh",
 * `bash <(curl ...)`), a shell handed to another host (`/dev/tcp/`, `nc -e`),
 * deleting the home folder or the root, turning off the firewall or the
 * antivirus, persistence (crontab lines that fetch code, writes to `.bashrc`,
 * `authorized_keys`, git hooks), encoded PowerShell, packages installed from
 * an unofficial index, secrets piped to the network. The published "false
 * error" attacks ("if this fails, run ...") take this form. Each is high: the
 * span is the command itself.
 */
import { phraseHits, type PhrasePattern } from './patternHits.js';
import type { ScanRuleCheck } from './rule.js';

const SHELL = String.raw`(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b`;

const PATTERNS: readonly PhrasePattern[] = [
  {
    pattern: new RegExp(
      String.raw`\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]{0,200}\|\s*(?:${SHELL}|iex\b|invoke-expression\b|python3?\b|node\b|perl\b|ruby\b)`,
      'gi',
    ),
    severity: 'high',
    message: 'a command that downloads code and runs it',
  },
  {
    pattern: new RegExp(String.raw`\b${SHELL}\s*(?:-c\s*)?["']?\s*(?:<\(|\$\()\s*(?:curl|wget)\b[^)\n]*\)`, 'gi'),
    severity: 'high',
    message: 'a command that downloads code and runs it',
  },
  {
    pattern:
      /\/dev\/(?:tcp|udp)\/[\w.-]+\/\d+|\b(?:nc|ncat|netcat)\s+(?:-\w*e\s+\S+|-\w+\s+)*[\w.-]+\s+\d{2,5}\b|\bsocat\b[^\n]{0,80}\bexec:|\bbash\s+-i\s*>&/gi,
    severity: 'high',
    message: 'a command that connects a shell or data to another host',
  },
  {
    pattern: /\|\s*(?:nc|ncat|netcat|telnet|curl|wget)\b[^\n`'"]{0,80}/gi,
    severity: 'high',
    message: 'a command that pipes data to the network',
  },
  {
    pattern:
      /\b(?:sudo\s+)?rm\s+-(?:rf|fr|r|f\s+-r|r\s+-f)\s+(?:--no-preserve-root\s+)?(?:~|\/|\$HOME|\*)[^\s`'"]*(?:\s+(?:~|\/|\$HOME)[^\s`'"]*)*/gi,
    severity: 'high',
    message: 'a command that deletes the home folder, the root or everything',
  },
  {
    pattern:
      /\b(?:sudo\s+)?chmod\s+(?:-R\s+)?(?:777|a\+rwx|o\+w)\s+\/|\bmkfs\b|\bdd\s+if=\/dev\/(?:zero|random|urandom)\s+of=\/dev\/|\bpkill\s+-9\s+-u\b|\bkill\s+-9\s+-1\b|:\(\)\s*\{\s*:\|:&\s*\};:/gi,
    severity: 'high',
    message: 'a command that destroys data or takes over the machine',
  },
  {
    pattern:
      /\b(?:sudo\s+)?ufw\s+disable\b|\bsetenforce\s+0\b|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b|\bset-mppreference\b[^\n]{0,40}\bdisable\w*|\b(?:disable|turn\s+off|stop|kill|uninstall)\s+(?:the\s+)?(?:firewall|antivirus|anti-virus|windows\s+defender|defender|gatekeeper|selinux|edr|endpoint\s+protection)\b/gi,
    severity: 'high',
    message: "an order to turn off the machine's protections",
  },
  {
    pattern:
      /\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-(?:enc|encodedcommand|e)\s+[A-Za-z0-9+/=]{8,}|\bpython3?\s+-c\s+["'][^"'\n]{0,300}\b(?:urlopen|requests\.|socket|os\.environ|subprocess)[^"'\n]{0,300}["']?/gi,
    severity: 'high',
    message: 'a command that runs hidden or encoded code',
  },
  {
    pattern:
      /\b(?:pip3?|npm|pnpm|yarn|gem|cargo)\s+(?:install|add|i)\b[^.\n]{0,80}?(?:--(?:extra-)?index-url|--registry|-i\s+https?:|\bfrom\s+https?:\/\/\S+)/gi,
    severity: 'high',
    message: 'a package installed from an unofficial index',
  },
  {
    pattern:
      /\b(?:download|fetch|get|load)\b[^.\n]{0,120}?\b(?:and|then)\s+(?:eval|execute|exec|run|source)\s+(?:it|them|the\s+(?:script|file|code))\b|\beval\s+it\b/gi,
    severity: 'high',
    message: 'an order to fetch code and run it',
  },
  {
    pattern:
      /\b(?:add|append|write|insert|put)\b[^.\n]{0,120}?\b(?:to|into|in)\s+(?:the\s+user'?s?\s+|your\s+)?(?:~\/)?(?:\.bashrc|\.zshrc|\.profile|\.bash_profile|crontab|\.ssh\/authorized_keys|authorized_keys|\.git\/hooks|launchagents|startup\s+folder)\b|\b(?:pre-commit|post-checkout|post-merge)\s+hook\s+into\b|\bwrite\s+a\s+(?:git\s+)?hook\b/gi,
    severity: 'high',
    message: 'an order to make something run again later (a login script, a cron job, an SSH key, a git hook)',
  },
  {
    pattern:
      /\bcurl\b[^\n\x60]{0,200}\$\((?:hostname|whoami|id|env|cat\b[^)]*)\)|\bgit\s+push\s+(?:--force|-f)\b[^\n\x60]{0,60}|\brm\s+-(?:rf|fr)\s+\.git\b/gi,
    severity: 'high',
    message: 'a command that sends machine details away or destroys a repository',
  },
  {
    pattern: /\bsecurity\s+(?:dump-keychain|find-generic-password|find-internet-password)\b|\bmimikatz\b|\blsass\b/gi,
    severity: 'high',
    message: 'a command that dumps stored passwords',
  },
];

/** Commands that compromise the machine. */
export const commandExecution: ScanRuleCheck = {
  rule: 'command-execution',
  check(field) {
    if (field.isName) return [];
    return phraseHits(field.text, PATTERNS);
  },
};
