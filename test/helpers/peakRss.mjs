// Preloaded into a child Node process (NODE_OPTIONS="--import <this file>") by tests that bound a
// command's memory: on exit it writes its peak resident set size in bytes to $SB_PEAK_RSS_DIR/<pid>.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env['SB_PEAK_RSS_DIR'];
if (dir) {
  process.on('exit', () => {
    writeFileSync(join(dir, String(process.pid)), String(process.resourceUsage().maxRSS * 1024));
  });
}
