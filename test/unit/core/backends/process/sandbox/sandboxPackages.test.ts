// The Linux sandbox's packages named together, once, with one install command, whichever is missing
// (a stock desktop has neither; a registry add used to name socat only after bubblewrap was there).
import { describe, expect, it } from 'vitest';
import { missingSandboxPackages } from '../../../../../../electron/core/backends/process/sandbox/sandboxPackages.js';

const having =
  (...commands: string[]) =>
  (command: string): boolean =>
    commands.includes(command);

describe('missingSandboxPackages', () => {
  it('names nothing when bwrap and socat are both on PATH', () => {
    expect(missingSandboxPackages(having('bwrap', 'socat'), 'linux')).toBeUndefined();
  });

  it('names both, with the one command, when neither is installed', () => {
    const missing = missingSandboxPackages(having(), 'linux');
    expect(missing?.packages).toEqual(['bubblewrap', 'socat']);
    expect(missing?.command).toBe('sudo apt install bubblewrap socat');
    expect(missing?.message).toBe(
      'the sandbox needs bubblewrap and socat (neither is installed): sudo apt install bubblewrap socat (Fedora: sudo dnf install bubblewrap socat)',
    );
  });

  it('names the missing one and still installs both in one command', () => {
    const noSocat = missingSandboxPackages(having('bwrap'), 'linux');
    expect(noSocat?.packages).toEqual(['socat']);
    expect(noSocat?.message).toMatch(/^the sandbox needs bubblewrap and socat \(socat is not installed\): /);
    expect(missingSandboxPackages(having('socat'), 'linux')?.packages).toEqual(['bubblewrap']);
    for (const missing of [noSocat, missingSandboxPackages(having('socat'), 'linux')])
      expect(missing?.message.match(/sudo apt install bubblewrap socat/g)).toHaveLength(1);
  });

  it('asks nothing off Linux (srt needs neither on macOS or Windows)', () => {
    for (const platform of ['darwin', 'win32'] as const)
      expect(missingSandboxPackages(having(), platform)).toBeUndefined();
  });
});
