/**
 * The installed servers at a glance, in `search_tools`'s own description: a
 * model sees what exists before it searches, and so searches at all (agents
 * that never call the search tool are the field's most-reported failure of
 * search modes). One line a server, in config order, with its tool count and
 * the names of its first tools; bounded whatever the catalog holds (about
 * 1,500 o200k tokens for the 70 servers of LiveMCPBench): past the budget a
 * server keeps only its name and count, and once it is spent the rest are
 * counted.
 */

/** One server the client may use, with its tools' original names in list order. */
export interface DirectoryServer {
  id: string;
  tools: readonly string[];
}

/** The directory's budget in characters (o200k reads tool names at about 3.5 characters a token). */
export const DIRECTORY_MAX_CHARS = 5000;
/** One server's line is cut to this many characters. */
const LINE_MAX_CHARS = 90;
/** Past this share of the budget, a server's line is its name and count only. */
const SHORT_FROM = 0.8;

/** The directory as text (empty for no servers). */
export function serverDirectory(servers: readonly DirectoryServer[]): string {
  const lines: string[] = [];
  let used = 0;
  for (const [i, server] of servers.entries()) {
    const head = `- ${server.id} (${server.tools.length})`;
    let line = head;
    if (used < DIRECTORY_MAX_CHARS * SHORT_FROM) {
      line = `${head}: ${server.tools.join(', ')}`;
      if (line.length > LINE_MAX_CHARS) line = `${line.slice(0, LINE_MAX_CHARS - 1).replace(/,?\s*[^,\s]*$/, '')}, …`;
    }
    if (used + line.length + 1 > DIRECTORY_MAX_CHARS) {
      lines.push(`…and ${servers.length - i} more servers.`);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines.length === 0 ? '' : `Servers you can search (tools, first names):\n${lines.join('\n')}`;
}
