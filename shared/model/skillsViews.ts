/**
 * Skills (SEP-2640) written into the folders of clients that read skills
 * from disk, as the Clients screen and the CLI show it: which clients have a
 * folder, and what an install wrote (or, previewed, would write) and where.
 */

/** The clients with a documented personal skills folder, and their names (docs/skills.md links each one's documentation). */
export const SKILLS_CLIENTS = [
  { id: 'claude-code', name: 'Claude Code' },
  { id: 'codex', name: 'Codex' },
  { id: 'cursor', name: 'Cursor' },
  { id: 'vscode', name: 'VS Code (GitHub Copilot)' },
  { id: 'gemini-cli', name: 'Gemini CLI' },
  { id: 'opencode', name: 'opencode' },
] as const;

/** One of {@link SKILLS_CLIENTS}' ids. */
export type SkillsClientId = (typeof SKILLS_CLIENTS)[number]['id'];

/** What an install of a client's skills did (or, a preview, would do). */
export interface SkillsInstallView {
  client: string;
  /** The client's skills folder. */
  folder: string;
  /** True: nothing was written or removed (a preview). */
  preview: boolean;
  /** Written (new or changed), each with its files' paths inside its folder. */
  written: { name: string; files: string[] }[];
  /** Ours, already as offered: left as they are. */
  unchanged: string[];
  /** Ours, no longer offered: removed. */
  removed: string[];
  /** Ours, no longer offered but kept (a change held for review, its server down). */
  kept: { name: string; reason: string }[];
  /** Not written (a folder of the user's own of that name, a file that failed its digest). */
  skipped: { name: string; reason: string }[];
}
